#!/usr/bin/env node
// @ts-check
'use strict';

// Opens the n8n editor with the packed package, the simulator and the example workflows
// ready to run. Ctrl-C stops n8n and the simulator.
//
// `--n8n 1.85.4` picks the other pinned n8n (default 2.41.0); PRODUCT_IMAGE_DEV_PORT the port
// (default 5678). The user folder lives in the install cache and survives restarts, so
// the owner account made on first visit is kept.

const path = require('node:path');
const readline = require('node:readline');
const { cacheDir, pinFor } = require('./lib/config');
const { parseFilters } = require('./lib/filters');
const { listExamples, LLM_CREDENTIAL } = require('./lib/workflows');
const { startSimulator } = require('./lib/simulator');
const { A_PLUS_SIMULATOR } = require('./lib/module-sizes');
const { startFakeOpenAi } = require('./lib/fake-openai');
const { preparePackageAndN8n, prepareUserFolder, makeWorkRoot } = require('./lib/suite');
const { portInUse } = require('./lib/ports');
const { redact } = require('./lib/redact');
const { info } = require('./lib/log');

async function main() {
	const { n8n: named, rest } = parseFilters(process.argv.slice(2), ['n8n']);
	if (rest.length || (named?.length ?? 0) > 1)
		throw new Error('usage: npm run dev [-- --n8n <version>]');
	const version = pinFor(named?.[0] ?? '2.41.0').version;
	const port = Number(process.env.PRODUCT_IMAGE_DEV_PORT || 5678);
	if (await portInUse(port))
		throw new Error(`port ${port} is taken; stop what uses it or set PRODUCT_IMAGE_DEV_PORT`);

	const workRoot = makeWorkRoot('product-image-dev');
	const { installs, tarball } = await preparePackageAndN8n({ versions: [version], workRoot });
	const sim = await startSimulator();
	// Large enough that the A+ examples' fit to module size never scales an image up.
	await sim.configure(A_PLUS_SIMULATOR);
	const llm = await startFakeOpenAi();
	// The image service takes only sizes like 1:1; every other argument carries the chat message.
	llm.reset({ arguments: { size: '1:1' } });
	/** @type {(() => Promise<void>) | undefined} */
	let stopEditor;
	let stopping = false;
	const shutdown = async () => {
		if (stopping) return;
		stopping = true;
		info('stopping n8n and the simulator');
		await stopEditor?.();
		await sim.stop();
		await llm.stop();
		process.exit(0);
	};
	process.on('SIGINT', shutdown);
	process.on('SIGTERM', shutdown);

	const userFolder = path.join(cacheDir(), 'dev', `n8n-${version}`);
	const examples = listExamples();
	const { n8n, workflows } = await prepareUserFolder({
		install: installs.n8n[version],
		tarball,
		userFolder,
		service: sim,
		llm,
		examples,
		pins: 'pinData',
		binaryMode: 'filesystem',
	});
	info(`starting n8n ${version} (user folder ${userFolder})`);
	const editor = await n8n.startEditor({ port });
	stopEditor = editor.stop;
	// Only n8n's warnings and errors reach the console; its info lines drown the URL. Its
	// calls home to n8n's own cloud (templates, registries) fail offline and say nothing
	// about this package, so they are left out too.
	for (const stream of [editor.child.stdout, editor.child.stderr]) {
		if (!stream) continue;
		readline.createInterface({ input: stream }).on('line', (line) => {
			if (
				!/error|warn/i.test(line) ||
				/^\s+at /.test(line) ||
				/api\.n8n\.io|api-staging\.n8n\.io/.test(line)
			)
				return;
			process.stderr.write(`  n8n: ${redact(line)}\n`);
		});
	}
	editor.child.once('close', (code) => {
		if (stopping) return;
		info(`n8n exited (code ${code})`);
		void shutdown();
	});
	// /healthz answers before the editor's page is served ("Cannot GET /" until then).
	info('waiting for the editor page');
	await waitForEditorPage(editor.url);

	console.log('');
	console.log(`n8n ${version} is running: ${editor.url}`);
	// The key opens nothing but this simulator; an operator needs it to fill a credential by hand.
	console.log(
		`  simulator: Base URL ${sim.baseUrl}, API Key ${sim.apiKey} (credential "Product Image (simulator)")`,
	);
	console.log(
		`  fake OpenAI API: ${llm.baseUrl} (credential "${LLM_CREDENTIAL.name}": a scripted model that calls the first tool, then quotes its result)`,
	);
	for (const w of workflows) console.log(`  workflow: ${editor.url}/workflow/${w.id}  (${w.name})`);
	if (workflows.length === 0) console.log('  no workflows in examples/ yet');
	console.log(
		`  first visit: n8n asks you to set up the owner account (an email, a name and a password of your choosing; kept in ${userFolder} for later runs), then open a workflow.`,
	);
	console.log(
		"  the simulator's images are placeholders (a block on a gradient for every generation), not product pictures. Ctrl-C stops everything.",
	);
}

/**
 * Resolves once `url` serves the editor's page: a 200 that is not Express's "Cannot GET".
 * @param {string} url
 * @param {{ timeoutMs?: number, sleep?: (ms: number) => Promise<void> }} [o]
 */
async function waitForEditorPage(url, o = {}) {
	const sleep = o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
	const tries = Math.ceil((o.timeoutMs ?? 180_000) / 1000);
	for (let attempt = 0; attempt < tries; attempt++) {
		const page = await fetch(url).then(
			async (res) => ({ ok: res.ok, text: await res.text() }),
			() => ({ ok: false, text: '' }),
		);
		if (page.ok && !page.text.startsWith('Cannot GET')) return;
		await sleep(1000);
	}
	throw new Error(`the editor page at ${url} did not open within ${tries} s`);
}

module.exports = { waitForEditorPage };

if (require.main === module)
	main().catch((err) => {
		console.error(`dev failed: ${redact(err instanceof Error ? err.message : String(err))}`);
		process.exit(1);
	});
