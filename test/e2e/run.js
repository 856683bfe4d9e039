#!/usr/bin/env node
// @ts-check
'use strict';

// The end-to-end suite: every example workflow, run by a real n8n (each pinned version)
// with the packed package installed, against the service simulator. With
// PRODUCT_IMAGE_BASE_URL and PRODUCT_IMAGE_API_KEY set it runs against the real service
// instead: only the self-contained first example (it bills three generations per run), in
// filesystem mode unless PRODUCT_IMAGE_E2E_BINARY_MODES says otherwise, checked by
// expectations/live.js.
//
// Environment:
//   PRODUCT_IMAGE_E2E_N8N           versions to run, comma-separated (default: all pinned)
//   PRODUCT_IMAGE_E2E_BINARY_MODES  binary modes (default: default,filesystem,combined; combined
//                                   is filesystem storage under the workflow setting Binary Mode
//                                   "combined", on the n8n versions that have it, for the examples
//                                   whose expectations list it)
//   PRODUCT_IMAGE_E2E_ONLY          example names to run, comma-separated
//   PRODUCT_IMAGE_E2E_SKIP_BUILD=1  use the existing dist/
//   PRODUCT_IMAGE_E2E_KEEP=1        keep the work folder (kept anyway when a check fails)
//   PRODUCT_IMAGE_E2E_CACHE         where Node 24 and n8n are installed

const fs = require('node:fs');
const path = require('node:path');
const { pinFor, selectedVersions } = require('./lib/config');
const { listExamples, expectationFile, FILES_DIR } = require('./lib/workflows');
const { startSimulator } = require('./lib/simulator');
const { startFakeOpenAi } = require('./lib/fake-openai');
const { liveService } = require('./lib/live-service');
const { CREDENTIAL, stableId } = require('./lib/workflows');
const { hasCombinedBinaryMode } = require('./n8n-process');
const {
	preparePackageAndN8n,
	prepareUserFolder,
	makeWorkRoot,
	finishWorkRoot,
	runSuite,
} = require('./lib/suite');
const { loadExpectation, makeContext } = require('./lib/expectation');
const { summary } = require('./lib/run-data');
const { redact } = require('./lib/redact');
const { keyLeak } = require('../lib/key-leaks');
const { info, formatDuration } = require('./lib/log');

/** @typedef {import('./n8n-process').BinaryMode | 'combined'} RunMode */

/** @type {RunMode[]} */
const MODES = ['default', 'filesystem', 'combined'];
/** What an expectation without `binaryModes` is checked in: the modes every n8n has. */
const CLASSIC_MODES = ['default', 'filesystem'];

const LIVE_EXAMPLE = 'product-photo-to-aplus-images';
const LIVE_EXPECTATION = path.join(__dirname, 'expectations', 'live.js');

/**
 * @param {boolean} live
 * @returns {RunMode[]}
 */
function binaryModes(live) {
	const raw = process.env.PRODUCT_IMAGE_E2E_BINARY_MODES;
	if (!raw) return live ? ['filesystem'] : MODES;
	const modes = raw
		.split(',')
		.map((s) => s.trim())
		.filter(Boolean);
	return modes.map((m) => {
		const mode = MODES.find((known) => known === m);
		if (!mode) throw new Error(`unknown binary data mode "${m}" (use ${MODES.join(' or ')})`);
		return mode;
	});
}

/** @param {boolean} live */
function selectedExamples(live) {
	const all = listExamples();
	const only = process.env.PRODUCT_IMAGE_E2E_ONLY ?? (live ? LIVE_EXAMPLE : undefined);
	if (!only) return all;
	const names = only.split(',').map((s) => s.trim());
	const unknown = names.filter((n) => !all.some((e) => e.name === n));
	if (unknown.length)
		throw new Error(`PRODUCT_IMAGE_E2E_ONLY names unknown examples: ${unknown.join(', ')}`);
	return all.filter((e) => names.includes(e.name));
}

/** @param {string} text */
function indent(text) {
	return text
		.split('\n')
		.map((l) => `      ${l}`)
		.join('\n');
}

/**
 * @param {object} o
 * @param {Awaited<ReturnType<typeof import('./n8n-process').createN8n>>} o.n8n
 * @param {{name: string, id: string, workflow: any}} o.workflow
 * @param {RunMode} o.mode
 * @param {import('./lib/simulator').RunningSimulator | undefined} o.sim the simulator, or undefined against the real service
 * @param {string} o.apiKey
 * @param {import('./lib/fake-openai').FakeOpenAi} [o.llm]
 * @param {string} o.logDir
 * @returns {Promise<{ok: boolean, detail: string, skipped?: boolean}>}
 */
async function runOne({ n8n, workflow, mode, sim, apiKey, llm, logDir }) {
	const file = sim ? expectationFile(workflow.name) : LIVE_EXPECTATION;
	const expectation = file ? loadExpectation(file) : undefined;
	if (!(expectation?.binaryModes ?? CLASSIC_MODES).includes(mode))
		return { ok: true, detail: '', skipped: true };
	const run = mode === 'combined' ? await importCombined(n8n, workflow, expectation) : workflow;

	await sim?.reset();
	if (expectation?.simulator) await sim?.configure(expectation.simulator);
	if (expectation?.faults) await sim?.faults(expectation.faults);
	llm?.reset(typeof expectation?.llm === 'object' ? expectation.llm : {});

	n8n.setBinaryMode(mode === 'combined' ? 'filesystem' : mode);
	const execution = await n8n.executeWorkflow(run.id, { timeoutMs: expectation?.timeoutMs });
	const logFile = path.join(logDir, `${workflow.name}.${n8n.version}.${mode}.log`);
	fs.writeFileSync(logFile, redact(`${execution.stdout}\n----- stderr -----\n${execution.stderr}`));

	const ran = summary(execution.runData);
	const serviceKeyLeak = keyLeak(`${execution.stdout}${execution.stderr}`, apiKey);
	if (serviceKeyLeak) {
		return {
			ok: false,
			detail: `the API key appears in n8n's output (${serviceKeyLeak}); log (redacted): ${logFile}`,
		};
	}
	const llmKeyLeak = llm && keyLeak(`${execution.stdout}${execution.stderr}`, llm.apiKey);
	if (llmKeyLeak) {
		return {
			ok: false,
			detail: `the OpenAI key appears in n8n's output (${llmKeyLeak}); log (redacted): ${logFile}`,
		};
	}
	if (execution.timedOut) return { ok: false, detail: `timed out; log: ${logFile}` };
	if (execution.parsed === undefined) {
		return {
			ok: false,
			detail: `n8n printed no run data (exit ${execution.exitCode}); log: ${logFile}\n${indent(redact(execution.stderr || execution.stdout).slice(-1500))}`,
		};
	}
	if (!execution.ok && !expectation?.expectFailure) {
		const message = execution.error?.message ?? `exit ${execution.exitCode}`;
		const node = execution.error?.node?.name ?? execution.lastNodeExecuted;
		return {
			ok: false,
			detail: `workflow failed${node ? ` in "${node}"` : ''}: ${redact(message)}\n      ran: ${ran}\n      log: ${logFile}`,
		};
	}
	if (execution.ok && expectation?.expectFailure)
		return { ok: false, detail: `expected the workflow to fail, but it succeeded (ran: ${ran})` };
	if (!expectation)
		return { ok: true, detail: `no expectations file: checked that it ran (${ran})` };

	const ctx = makeContext({
		name: workflow.name,
		version: n8n.version,
		binaryMode: mode,
		userFolder: n8n.userFolder,
		n8nFolder: n8n.n8nFolder,
		env: n8n.env,
		workflow: run.workflow,
		execution,
		stats: await sim?.stats(),
		tasks: await sim?.tasks().catch(() => undefined),
		simulator: sim,
		llm: llm && { baseUrl: llm.baseUrl, requests: llm.requests() },
	});
	try {
		await expectation(execution.runData, ctx);
		return { ok: true, detail: ran };
	} catch (err) {
		const message = err instanceof Error ? err.message : String(err);
		return { ok: false, detail: `${redact(message)}\n      ran: ${ran}\n      log: ${logFile}` };
	}
}

/**
 * The combined-mode copy of a workflow: the workflow setting Binary Mode "combined", adapted by
 * the expectation as an operator would adapt it, imported under an id of its own.
 * @param {Awaited<ReturnType<typeof import('./n8n-process').createN8n>>} n8n
 * @param {{name: string, id: string, file: string, workflow: any}} workflow
 * @param {import('./lib/expectation').Expectation | undefined} expectation
 */
async function importCombined(n8n, workflow, expectation) {
	// In combined mode `$('Node').item` is the item's JSON (n8n-workflow's WorkflowDataProxy): what
	// the saved workflow reads as `.item.json.url` an operator writes as `.item.url`.
	const copy = JSON.parse(JSON.stringify(workflow.workflow).replaceAll('.item.json.', '.item.'));
	copy.id = stableId(`${workflow.name}:combined`);
	copy.name = `${copy.name} (combined binary mode)`;
	copy.settings = { ...copy.settings, binaryMode: 'combined' };
	expectation?.combinedWorkflow?.(copy);
	const file = workflow.file.replace(/\.json$/, '.combined.json');
	fs.writeFileSync(file, JSON.stringify(copy, null, 2));
	await n8n.importWorkflow(file);
	return { id: copy.id, workflow: copy };
}

async function main() {
	const started = Date.now();
	const versions = selectedVersions();
	const live = liveService();
	const modes = binaryModes(Boolean(live));
	const examples = selectedExamples(Boolean(live));
	let passed = 0;
	let failed = 0;
	if (examples.length === 0) {
		info('no example workflows found in examples/*.json: nothing to run');
		return { passed, failed: 1 };
	}

	const workRoot = makeWorkRoot('product-image-e2e');
	info(`work folder: ${workRoot}`);
	const { installs, tarball } = await preparePackageAndN8n({ versions, workRoot });
	const sim = live ? undefined : await startSimulator();
	const service = live ?? {
		baseUrl: /** @type {NonNullable<typeof sim>} */ (sim).baseUrl,
		apiKey: /** @type {NonNullable<typeof sim>} */ (sim).apiKey,
		credentialName: CREDENTIAL.name,
	};
	info(
		live
			? `the real service at ${live.baseUrl} (each run bills its generations)`
			: `simulator at ${service.baseUrl}`,
	);
	const needsLlm = examples.some((e) => {
		const file = expectationFile(e.name);
		return Boolean(file && loadExpectation(file).llm);
	});
	const llm = needsLlm ? await startFakeOpenAi() : undefined;
	if (llm) info(`fake OpenAI API at ${llm.baseUrl}`);
	try {
		for (const version of versions) {
			const combined = hasCombinedBinaryMode(installs.n8n[version]);
			if (modes.includes('combined') && !combined)
				info(`n8n ${version} has no workflow setting Binary Mode "combined": its runs are skipped`);
			if (modes.every((mode) => mode === 'combined') && !combined) continue;
			const userFolder = path.join(workRoot, `n8n-${version}`);
			info(`n8n ${version}: preparing ${userFolder}`);
			const only = pinFor(version).examples;
			const forVersion = only ? examples.filter((e) => only.includes(e.name)) : examples;
			const { n8n, workflows } = await prepareUserFolder({
				install: installs.n8n[version],
				tarball,
				userFolder,
				service,
				llm,
				examples: forVersion,
				files: FILES_DIR,
			});
			for (const workflow of workflows) {
				for (const mode of modes) {
					if (mode === 'combined' && !combined) continue;
					const t = Date.now();
					/** @type {{ok: boolean, detail: string, skipped?: boolean}} */
					let result;
					try {
						result = await runOne({
							n8n,
							workflow,
							mode,
							sim,
							apiKey: service.apiKey,
							llm,
							logDir: userFolder,
						});
					} catch (err) {
						result = {
							ok: false,
							detail: redact(err instanceof Error ? err.message : String(err)),
						};
					}
					if (result.skipped) continue;
					const tag = `n8n ${version} [${mode}] ${workflow.name} (${formatDuration(Date.now() - t)})`;
					if (result.ok) passed += 1;
					else failed += 1;
					console.log(`${result.ok ? 'PASS' : 'FAIL'} ${tag}`);
					console.log(`      ${result.detail}`);
				}
			}
		}
	} finally {
		await sim?.stop();
		await llm?.stop();
		finishWorkRoot(workRoot, failed, started);
	}
	return { passed, failed };
}

runSuite('e2e suite', main);
