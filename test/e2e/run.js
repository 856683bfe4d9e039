#!/usr/bin/env node
// @ts-check
'use strict';

// The headless real-n8n suite: the workflows lib/matrix.js names for each pinned n8n, each run by
// `n8n execute` in each binary data mode the table gives it, with the packed package installed,
// against the service simulator. Each n8n gets one user folder holding every workflow it runs.
// With PRODUCT_IMAGE_BASE_URL and PRODUCT_IMAGE_API_KEY set it runs against the real service
// instead: only the self-contained first example (it bills three generations per run), in
// filesystem mode, on each n8n of the table, checked by expectations/live.js.
//
// Flags narrow the table (comma-separated values; lib/filters.js):
//   --n8n 2.41.0         these n8n versions
//   --set reply-shapes   these sets of workflows (lib/matrix.js SETS)
//   --only <name>        these workflows (file names without .json)
//   --mode filesystem    these binary data modes (default, filesystem, combined)
// Environment:
//   PRODUCT_IMAGE_E2E_SKIP_BUILD=1  use the existing dist/
//   PRODUCT_IMAGE_E2E_KEEP=1        keep the work folder (kept anyway when a check fails)
//   PRODUCT_IMAGE_E2E_CACHE         where Node 24 and n8n are installed

const fs = require('node:fs');
const path = require('node:path');
const { N8N_PINS } = require('./lib/config');
const { MATRIX, SETS, isWorkflowRow } = require('./lib/matrix');
const { parseFilters, keep } = require('./lib/filters');
const { listWorkflows, expectationFile, CREDENTIAL, stableId } = require('./lib/workflows');
const { startSimulator } = require('./lib/simulator');
const { startFakeOpenAi } = require('./lib/fake-openai');
const { liveService } = require('./lib/live-service');
const { hasCombinedBinaryMode } = require('./n8n-process');
const { prepareUserFolder, runOnPins, runSuite } = require('./lib/suite');
const { includedNodes, runnerEnv } = require('./lib/boot-scope');
const { loadExpectation, makeContext } = require('./lib/expectation');
const { summary } = require('./lib/run-data');
const { redact } = require('./lib/redact');
const { keyLeak } = require('../lib/key-leaks');
const { info, formatDuration } = require('./lib/log');
const { LOADED_RUN_MS } = require('./lib/waits');

/**
 * @typedef {import('./lib/matrix').RunMode} RunMode
 * @typedef {import('./lib/workflows').WorkflowFile} WorkflowFile
 * @typedef {{version: string, workflow: WorkflowFile, mode: RunMode}} Run
 */

/** @type {RunMode[]} */
const MODES = ['default', 'filesystem', 'combined'];
/** What an expectation without `binaryModes` can judge: the modes every n8n has. */
const CLASSIC_MODES = ['default', 'filesystem'];

const LIVE_EXAMPLE = 'product-photo-to-aplus-images';
const LIVE_EXPECTATION = path.join(__dirname, 'expectations', 'live.js');

/**
 * The runs of the table (or, against the real service, the live example on each n8n of the table)
 * that the flags keep, in the order of the pins, then of the table.
 * @param {boolean} live
 * @returns {Run[]}
 */
function selectedRuns(live) {
	const filters = parseFilters(process.argv.slice(2));
	if (filters.rest.length) throw new Error(`unknown arguments: ${filters.rest.join(' ')}`);
	const rows = MATRIX.filter(isWorkflowRow);
	const tableRows = live
		? [...new Set(rows.map((r) => r.n8n))].map((n8n) => ({
				n8n,
				set: /** @type {const} */ ('examples'),
				only: [LIVE_EXAMPLE],
				modes: /** @type {RunMode[]} */ (['filesystem']),
			}))
		: rows;
	const versions = keep(
		N8N_PINS.map((p) => p.version),
		filters.n8n,
		'n8n version',
	);
	const sets = keep(Object.keys(SETS), filters.set, 'workflow set');
	const modes = keep(MODES, filters.mode, 'binary data mode');
	if (filters.only) {
		const names = new Set(
			Object.keys(SETS).flatMap((set) =>
				listWorkflows(/** @type {keyof typeof SETS} */ (set)).map((w) => w.name),
			),
		);
		keep([...names], filters.only, 'workflow');
	}
	/** @type {Run[]} */
	const runs = [];
	for (const version of versions) {
		for (const row of tableRows.filter((r) => r.n8n === version && sets.includes(r.set))) {
			const workflows = listWorkflows(row.set).filter(
				(w) =>
					(!row.only || row.only.includes(w.name)) &&
					(!filters.only || filters.only.includes(w.name)),
			);
			const missing = (row.only ?? []).filter((name) => !workflows.some((w) => w.name === name));
			if (missing.length && !filters.only)
				throw new Error(`lib/matrix.js names workflows ${row.set} does not have: ${missing}`);
			for (const workflow of workflows)
				for (const mode of row.modes.filter((m) => modes.includes(m)))
					runs.push({ version, workflow, mode });
		}
	}
	return runs;
}

/** @param {Run} run */
function expectationOf(run, live = false) {
	const file = live ? LIVE_EXPECTATION : expectationFile(run.workflow);
	return file ? loadExpectation(file) : undefined;
}

/** @param {string} text */
function indent(text) {
	return text
		.split('\n')
		.map((l) => `      ${l}`)
		.join('\n');
}

/**
 * A signal names a crash or a kill from outside; an exit code, n8n's own verdict.
 * @param {{exitCode: number | null, exitSignal: NodeJS.Signals | null}} execution
 */
const howItEnded = ({ exitCode, exitSignal }) =>
	exitSignal ? `n8n ended by ${exitSignal}, not by its own exit` : `exit ${exitCode}`;

/**
 * @param {object} o
 * @param {Awaited<ReturnType<typeof import('./n8n-process').createN8n>>} o.n8n
 * @param {import('./install-n8n').N8nInstall} o.install
 * @param {{name: string, id: string, workflow: any}} o.workflow the imported copy this mode runs
 * @param {RunMode} o.mode
 * @param {import('./lib/expectation').Expectation | undefined} o.expectation
 * @param {import('./lib/simulator').RunningSimulator | undefined} o.sim the simulator, or undefined against the real service
 * @param {string} o.apiKey
 * @param {import('./lib/fake-openai').FakeOpenAi} [o.llm]
 * @param {string} o.logDir
 * @returns {Promise<{ok: boolean, detail: string}>}
 */
async function runOne({ n8n, install, workflow, mode, expectation, sim, apiKey, llm, logDir }) {
	const run = workflow;
	await sim?.reset();
	if (expectation?.simulator) await sim?.configure(expectation.simulator);
	if (expectation?.faults) await sim?.faults(expectation.faults);
	llm?.reset(typeof expectation?.llm === 'object' ? expectation.llm : {});

	n8n.setBinaryMode(mode === 'combined' ? 'filesystem' : mode);
	const timeoutMs = expectation?.timeoutMs ?? LOADED_RUN_MS;
	const execution = await n8n.executeWorkflow(run.id, {
		timeoutMs,
		env: runnerEnv(install, run.workflow),
	});
	const logFile = path.join(logDir, `${workflow.id}.${n8n.version}.${mode}.log`);
	fs.writeFileSync(logFile, redact(`${execution.stdout}\n----- stderr -----\n${execution.stderr}`));

	const ran = `${summary(execution.runData)}${execution.crashedAfterRun ? `; then n8n ended by ${execution.exitSignal} after printing the whole run` : ''}`;
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
	if (execution.timedOut)
		return {
			ok: false,
			detail: `n8n execute did not end within ${timeoutMs / 1000} s (waiting for the run of ${run.name} to end); log: ${logFile}`,
		};
	if (execution.parsed === undefined) {
		return {
			ok: false,
			detail: `n8n printed no run data (${howItEnded(execution)}); log: ${logFile}\n${indent(redact(execution.stderr || execution.stdout).slice(-1500))}`,
		};
	}
	if (!execution.ok && !expectation?.expectFailure) {
		const message = execution.error?.message ?? howItEnded(execution);
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
 * the expectation as an operator would adapt it, under an id of its own.
 * @param {{name: string, set: string, workflow: any}} imported
 * @param {import('./lib/expectation').Expectation | undefined} expectation
 */
function combinedCopy(imported, expectation) {
	// In combined mode `$('Node').item` is the item's JSON (n8n-workflow's WorkflowDataProxy): what
	// the saved workflow reads as `.item.json.url` an operator writes as `.item.url`.
	const copy = JSON.parse(JSON.stringify(imported.workflow).replaceAll('.item.json.', '.item.'));
	copy.id = stableId(`${imported.set}/${imported.name}:combined`);
	copy.name = `${copy.name} (combined binary mode)`;
	copy.settings = { ...copy.settings, binaryMode: 'combined' };
	expectation?.combinedWorkflow?.(copy);
	return copy;
}

/** @param {Run} run */
const workflowKey = (run) => `${run.workflow.set}/${run.workflow.name}`;

/**
 * The table is wrong, not the node, when it asks for a mode a check cannot judge or an n8n lacks.
 * @param {Run[]} runs
 * @param {boolean} live
 * @param {Record<string, import('./install-n8n').N8nInstall>} installs
 */
function checkModes(runs, live, installs) {
	for (const run of runs) {
		const judged = expectationOf(run, live)?.binaryModes ?? CLASSIC_MODES;
		if (!judged.includes(run.mode))
			throw new Error(
				`${workflowKey(run)} runs in ${run.mode} mode on n8n ${run.version}, which its expectation does not judge (binaryModes: ${judged.join(', ')})`,
			);
		if (run.mode === 'combined' && !hasCombinedBinaryMode(installs[run.version]))
			throw new Error(
				`n8n ${run.version} has no workflow setting Binary Mode "combined" (${workflowKey(run)})`,
			);
	}
}

/**
 * Every run of one pin, in one user folder holding each workflow it runs.
 * @param {import('./lib/suite').Pin} pin
 * @param {{runs: Run[], live: boolean, sim: import('./lib/simulator').RunningSimulator | undefined, service: {baseUrl: string, apiKey: string, credentialName?: string}, llm: import('./lib/fake-openai').FakeOpenAi | undefined}} o
 */
async function runPin(
	{ version, install, tarball, userFolder },
	{ runs, live, sim, service, llm },
) {
	const counts = { passed: 0, failed: 0 };
	const forVersion = runs.filter((r) => r.version === version);
	info(`n8n ${version}: preparing ${userFolder}`);
	const workflowFiles = [...new Map(forVersion.map((r) => [workflowKey(r), r.workflow])).values()];
	const combined = new Set(forVersion.filter((r) => r.mode === 'combined').map(workflowKey));
	/** @type {Map<string, any>} */
	const copies = new Map();
	const { n8n, workflows } = await prepareUserFolder({
		install,
		tarball,
		userFolder,
		service,
		llm,
		examples: workflowFiles,
		copies: (imported) =>
			imported
				.filter((w) => combined.has(`${w.set}/${w.name}`))
				.map((w) => {
					const run = forVersion.find((r) => workflowKey(r) === `${w.set}/${w.name}`);
					const copy = combinedCopy(w, run && expectationOf(run, live));
					copies.set(`${w.set}/${w.name}`, copy);
					return copy;
				}),
	});
	// The commands from here on run workflows only: n8n loads the node types they hold.
	n8n.env.NODES_INCLUDE = includedNodes([...workflows.map((w) => w.workflow), ...copies.values()]);
	for (const run of forVersion) {
		const key = workflowKey(run);
		const imported = /** @type {NonNullable<(typeof workflows)[number]>} */ (
			workflows.find((w) => `${w.set}/${w.name}` === key)
		);
		const workflow =
			run.mode === 'combined'
				? { name: imported.name, id: copies.get(key).id, workflow: copies.get(key) }
				: imported;
		const t = Date.now();
		/** @type {{ok: boolean, detail: string}} */
		let result;
		try {
			result = await runOne({
				n8n,
				install,
				workflow,
				mode: run.mode,
				expectation: expectationOf(run, live),
				sim,
				apiKey: service.apiKey,
				llm,
				logDir: userFolder,
			});
		} catch (err) {
			result = { ok: false, detail: redact(err instanceof Error ? err.message : String(err)) };
		}
		const tag = `n8n ${version} [${run.mode}] ${key} (${formatDuration(Date.now() - t)})`;
		if (result.ok) counts.passed += 1;
		else counts.failed += 1;
		console.log(`${result.ok ? 'PASS' : 'FAIL'} ${tag}`);
		console.log(`      ${result.detail}`);
	}
	return counts;
}

/**
 * The simulator (or the real service) and, when a workflow needs a model, the fake OpenAI API.
 * @param {Run[]} runs
 * @param {{baseUrl: string, apiKey: string} | undefined} live
 * @param {Record<string, import('./install-n8n').N8nInstall>} installs
 */
async function startServices(runs, live, installs) {
	checkModes(runs, Boolean(live), installs);
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
	const needsLlm = runs.some((r) => Boolean(expectationOf(r, Boolean(live))?.llm));
	const llm = needsLlm ? await startFakeOpenAi() : undefined;
	if (llm) info(`fake OpenAI API at ${llm.baseUrl}`);
	const stop = async () => {
		await sim?.stop();
		await llm?.stop();
	};
	return { context: { runs, live: Boolean(live), sim, service, llm }, stop };
}

async function main() {
	const live = liveService();
	const runs = selectedRuns(Boolean(live));
	if (runs.length === 0) return { passed: 0, failed: 0 };
	return runOnPins(
		{
			prefix: 'product-image-e2e',
			versions: [...new Set(runs.map((r) => r.version))],
			setUp: ({ installs }) => startServices(runs, live, installs.n8n),
		},
		runPin,
	);
}

runSuite('e2e suite', main);
