#!/usr/bin/env node
// @ts-check
'use strict';

// Runs the first example workflow in a real n8n and saves the images it produced into
// demo-output/. Against the simulator by default; against the real service when
// PRODUCT_IMAGE_BASE_URL and PRODUCT_IMAGE_API_KEY are set.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./lib/config');
const { listExamples } = require('./lib/workflows');
const { startSimulator } = require('./lib/simulator');
const { A_PLUS_SIMULATOR } = require('./lib/module-sizes');
const { preparePackageAndN8n, prepareUserFolder, makeWorkRoot } = require('./lib/suite');
const { summary, lastNode, nodeItems } = require('./lib/run-data');
const { readBinary, pngSize } = require('./lib/binary');
const { redact } = require('./lib/redact');
const { liveService } = require('./lib/live-service');
const { info, formatBytes, formatDuration } = require('./lib/log');
const { stopChildrenOnSignal } = require('./lib/proc');

const VERSION = '2.41.0';
const EXAMPLE = 'product-photo-to-aplus-images';
const OUTPUT_DIR = path.join(REPO_ROOT, 'demo-output');

/** @param {string} name */
function safeFileName(name) {
	return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '') || 'image';
}

/** @returns {Promise<{service: {baseUrl: string, apiKey: string, credentialName: string}, stop: () => Promise<void>, label: string, simulated: boolean}>} */
async function chooseService() {
	const live = liveService();
	if (live)
		return {
			service: live,
			stop: async () => {},
			label: `the service at ${live.baseUrl}`,
			simulated: false,
		};
	const sim = await startSimulator();
	// Large enough that fitting each image to its A+ module never scales it up.
	await sim.configure(A_PLUS_SIMULATOR);
	return {
		service: {
			baseUrl: sim.baseUrl,
			apiKey: sim.apiKey,
			credentialName: 'Product Image (simulator)',
		},
		stop: sim.stop,
		label: `the simulator at ${sim.baseUrl}`,
		simulated: true,
	};
}

/**
 * @param {any[]} items
 * @param {string} n8nFolder
 * @param {NodeJS.ProcessEnv} env
 */
function writeImages(items, n8nFolder, env) {
	fs.rmSync(OUTPUT_DIR, { recursive: true, force: true });
	fs.mkdirSync(OUTPUT_DIR, { recursive: true });
	/** @type {Set<string>} */
	const used = new Set();
	/** @type {{file: string, bytes: number, size: {width: number, height: number} | undefined, item: number, field: string, module?: string}[]} */
	const written = [];
	items.forEach((item, index) => {
		for (const [field, entry] of Object.entries(item.binary ?? {})) {
			const { bytes } = readBinary(entry, { n8nFolder, env });
			const ext = entry.fileExtension ? `.${entry.fileExtension}` : '';
			let name = safeFileName(entry.fileName || `item-${index}-${field}${ext}`);
			if (used.has(name)) name = `${index}-${field}-${name}`;
			used.add(name);
			const file = path.join(OUTPUT_DIR, name);
			fs.writeFileSync(file, bytes);
			written.push({
				file,
				bytes: bytes.length,
				size: pngSize(bytes),
				item: index,
				field,
				module: item.json?.module,
			});
		}
	});
	return written;
}

/**
 * The A+ module an output item was made for, followed back through each item's pairedItem to the
 * plan's item that names it.
 * @param {Record<string, any[]>} runData
 * @param {string} node
 * @param {number} index
 * @returns {string | undefined}
 */
function moduleOf(runData, node, index) {
	/** @type {{node: string, index: number} | undefined} */
	let at = { node, index };
	for (let hops = 0; at && hops < 50; hops++) {
		const runs = runData[at.node];
		const run = runs?.[runs.length - 1];
		const item = run?.data?.main?.[0]?.[at.index];
		if (!item) return undefined;
		if (typeof item.json?.module === 'string') return item.json.module;
		const paired = Array.isArray(item.pairedItem)
			? item.pairedItem[0]
			: typeof item.pairedItem === 'number'
				? { item: item.pairedItem }
				: item.pairedItem;
		const previous = run.source?.[paired?.input ?? 0]?.previousNode;
		at = paired && previous ? { node: previous, index: paired.item } : undefined;
	}
	return undefined;
}

async function main() {
	const started = Date.now();
	const example = listExamples().find((e) => e.name === EXAMPLE);
	if (!example) throw new Error(`examples/${EXAMPLE}.json not found`);
	const workRoot = makeWorkRoot('product-image-demo');
	const { installs, tarball } = await preparePackageAndN8n({ versions: [VERSION], workRoot });
	const { service, stop, label, simulated } = await chooseService();
	try {
		info(`running ${EXAMPLE} in n8n ${VERSION} against ${label}`);
		const { n8n, workflows } = await prepareUserFolder({
			install: installs.n8n[VERSION],
			tarball,
			userFolder: path.join(workRoot, `n8n-${VERSION}`),
			service,
			examples: [example],
			binaryMode: 'filesystem',
		});
		const execution = await n8n.executeWorkflow(workflows[0].id, { timeoutMs: 15 * 60 * 1000 });
		console.log(`nodes run: ${summary(execution.runData) || 'none'}`);
		if (!execution.ok) {
			const message = execution.error?.message ?? `n8n exited with ${execution.exitCode}`;
			console.log(redact(`the workflow failed: ${message}`));
			if (execution.parsed === undefined)
				console.log(redact(execution.stderr.slice(-2000) || execution.stdout.slice(-2000)));
			return 1;
		}
		const last = lastNode(execution.runData, execution.lastNodeExecuted);
		if (!last) throw new Error('the run has no nodes');
		const items = nodeItems(execution.runData, last);
		console.log(`last node "${last}": ${items.length} item(s)`);
		const written = writeImages(items, n8n.n8nFolder, n8n.env);
		const modules = written.map((w) => moduleOf(execution.runData, last, w.item));
		written.forEach((w, index) => {
			const dims = w.size ? `, ${w.size.width}x${w.size.height} PNG` : '';
			const module = modules[index] ? `, A+ module ${modules[index]}` : '';
			console.log(
				`wrote ${path.relative(REPO_ROOT, w.file)} (${formatBytes(w.bytes)}${dims}${module}) from item ${w.item}, field "${w.field}"`,
			);
		});
		if (written.length === 0)
			console.log(
				`the last node's items carry no binary data; nothing written to ${path.relative(REPO_ROOT, OUTPUT_DIR)}/`,
			);
		// A newcomer opening demo-output/ would otherwise take the simulator's pictures for a broken generation.
		if (simulated && written.length > 0) {
			const named = [...new Set(modules.filter(Boolean))];
			console.log(
				`these are the simulator's placeholders, not product pictures: it paints a block on a gradient for every generation, ` +
					`and the workflow fits each to its A+ module's size${named.length ? ` (${named.join(', ')})` : ''}. ` +
					'With PRODUCT_IMAGE_BASE_URL and PRODUCT_IMAGE_API_KEY set, the demo runs against the real service and writes product pictures.',
			);
		}
		info(`done in ${formatDuration(Date.now() - started)}`);
		return 0;
	} finally {
		await stop();
		fs.rmSync(workRoot, { recursive: true, force: true });
	}
}

stopChildrenOnSignal();
main().then(
	(code) => {
		process.exitCode = code;
	},
	(err) => {
		console.error(`demo failed: ${redact(err instanceof Error ? err.message : String(err))}`);
		process.exitCode = 1;
	},
);
