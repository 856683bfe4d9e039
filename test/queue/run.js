#!/usr/bin/env node
// @ts-check
'use strict';

// The queue-mode suite: n8n with Postgres, Redis, one main process and two workers, the
// packed package installed as a community package, executions started by production
// webhooks, against the service simulator. Everything it starts is stopped at the end, also
// when a check fails or the run is interrupted.
//
// Environment:
//   --n8n 2.41.0                     narrows the n8n versions lib/matrix.js runs it on (2.41.0)
//   PRODUCT_IMAGE_QUEUE_BINARY_MODE  binary data mode (default: database on 2.x, filesystem on 1.x)
//   PRODUCT_IMAGE_QUEUE_ONLY         scenarios, comma-separated: examples, manual, upload, stop,
//                                    fan-out, outage, restart
//                                    (a narrowed run leaves the published figures alone)
//   --write-readme                   a full passing run writes its figures into docs/large-catalogues.md
//                                    (`node test/queue/run.js --write-readme`); `npm test` never writes the tree
//   PRODUCT_IMAGE_E2E_SKIP_BUILD=1   use the existing dist/
//   PRODUCT_IMAGE_E2E_KEEP=1         keep the work folder (kept anyway when a check fails)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cacheDir } = require('../e2e/lib/config');
const { pinsOf } = require('../e2e/lib/matrix');
const { listExamples, expectationFile } = require('../e2e/lib/workflows');
const { loadExpectation } = require('../e2e/lib/expectation');
const { preparePackageAndN8n } = require('../e2e/lib/suite');
const { startSimulator } = require('../e2e/lib/simulator');
const { startFakeOpenAi } = require('../e2e/lib/fake-openai');
const { stopChildrenOnSignal } = require('../e2e/lib/proc');
const { info, formatDuration } = require('../e2e/lib/log');
const { ensureServers } = require('./lib/system-packages');
const { writeReadmeFigures } = require('./lib/readme-figures');
const { startStack } = require('./lib/stack');
const {
	webhookCopy,
	uploadManyWorkflow,
	longWaitWorkflow,
	fanOutCopy,
	submitCollectCopies,
	manualCopy,
} = require('./lib/workflows');
const { runExamples } = require('./scenarios/examples');
const { runManual } = require('./scenarios/manual');
const { runUploadMany } = require('./scenarios/upload-many');
const { runStop } = require('./scenarios/stop');
const { createFanOutTable, runFanOut } = require('./scenarios/fan-out');
const { runOutage } = require('./scenarios/outage');
const { runRestart } = require('./scenarios/restart');

const UPLOAD_ITEMS = 20;
const FAN_OUT = { products: 200, images: 2, batchSize: 20 };
// The submit run paces one second per product: the kill lands mid-catalogue. The next run waits
// until the killed run's hold lapses: the example's 60 s would be most of the suite's wait, where
// a hold renewed every second of batch needs far less.
const RESTART = { products: 12, killAfter: 5, secondsARunHolds: 15 };
// Executions each worker runs at once: with 10 batches, one worker needs two rounds.
const WORKER_CONCURRENCY = 5;

const WRITE_README = '--write-readme';
const VERSIONS = pinsOf(
	'queue',
	process.argv.slice(2).filter((arg) => arg !== WRITE_README),
);
const versions = () => VERSIONS;

/** @param {string} version @returns {'default' | 'filesystem' | 'database'} */
function binaryMode(version) {
	const chosen = process.env.PRODUCT_IMAGE_QUEUE_BINARY_MODE;
	if (chosen === 'default' || chosen === 'filesystem' || chosen === 'database') return chosen;
	if (chosen)
		throw new Error(`unknown binary data mode "${chosen}" (default, filesystem or database)`);
	return Number(version.split('.')[0]) >= 2 ? 'database' : 'filesystem';
}

const SCENARIOS = ['examples', 'manual', 'upload', 'stop', 'fan-out', 'outage', 'restart'];
/** The example run from the editor's Execute button. */
const MANUAL_EXAMPLE = 'product-photo-to-aplus-images';
const ONLY = process.env.PRODUCT_IMAGE_QUEUE_ONLY?.split(',')
	.map((s) => s.trim())
	.filter(Boolean);
/** @param {string} scenario */
const selected = (scenario) => !ONLY || ONLY.includes(scenario);

/**
 * The fan-out over both workers, then again through a 429 storm: every worker backs off, every
 * product is submitted once, every image stored once, the batches spread over both workers. The
 * wall-time ratio of one worker to two is a figure, not a check: only a run that writes the
 * figures (`--write-readme`) adds the run over one worker it takes.
 * @param {import('./scenarios/context').Context} ctx
 * @param {ReturnType<typeof fanOutCopy>} fanOut
 * @param {Awaited<ReturnType<typeof startStack>>['workers']} workers
 */
async function fanOutScenario(ctx, fanOut, workers) {
	const table = await createFanOutTable(ctx);
	const two = await runFanOut(ctx, fanOut, { ...FAN_OUT, table, workers });
	await runFanOut(ctx, fanOut, { ...FAN_OUT, table, workers, submit429sEach: 1 });
	ctx.check(Object.keys(two.perWorker).length === 2, 'the fan-out spread over both workers');
	// The scenarios after this one run on one worker, as they always have.
	await workers[1].stop();
	if (!process.argv.includes(WRITE_README)) return;
	const one = await runFanOut(ctx, fanOut, { ...FAN_OUT, table, workers: [workers[0]] });
	ctx.report(
		`fan-out wall time, 1 worker / 2 workers (worker concurrency ${WORKER_CONCURRENCY}, Max Concurrency 5): ${(one.wallMs / two.wallMs).toFixed(2)}`,
	);
}

/** A selection that names nothing, or something this suite does not know, would run nothing and pass. */
function checkSelection() {
	const unknown = (ONLY ?? []).filter((name) => !SCENARIOS.includes(name));
	if (unknown.length)
		throw new Error(
			`PRODUCT_IMAGE_QUEUE_ONLY names unknown scenarios: ${unknown.join(', ')} (known: ${SCENARIOS.join(', ')})`,
		);
	if (ONLY && ONLY.length === 0)
		throw new Error(
			`PRODUCT_IMAGE_QUEUE_ONLY selects no scenario (known: ${SCENARIOS.join(', ')})`,
		);
	if (versions().length === 0)
		throw new Error('--n8n selects no n8n version the queue suite runs on');
}

async function main() {
	checkSelection();
	stopChildrenOnSignal();
	const started = Date.now();
	const servers = await ensureServers();
	const queueCache = path.join(cacheDir(), 'queue');
	fs.mkdirSync(queueCache, { recursive: true });
	const workRoot = fs.mkdtempSync(path.join(queueCache, 'run-'));
	info(`work folder ${workRoot}`);
	const { installs, tarball } = await preparePackageAndN8n({ versions: versions(), workRoot });
	const sim = await startSimulator();
	const llm = await startFakeOpenAi();
	/** @type {string[]} */
	const failures = [];
	/** @type {string[]} */
	const measured = [];
	let checks = 0;
	try {
		await sim.configure({ taskDurationMs: 300 });
		// The one example with an AI model scripts the fake model through its expectation.
		for (const e of listExamples()) {
			const file = expectationFile(e);
			const script = file && loadExpectation(file).llm;
			if (typeof script === 'object') llm.reset(script);
		}
		const fanOut = fanOutCopy(FAN_OUT.products);
		const examples = listExamples()
			.filter(
				(e) => !expectationFile(e) || !loadExpectation(String(expectationFile(e))).waitsForPerson,
			)
			.map((e) => ({ name: e.name, ...webhookCopy(e) }));
		const manual = manualCopy(
			/** @type {NonNullable<ReturnType<typeof listExamples>[number]>} */ (
				listExamples().find((e) => e.name === MANUAL_EXAMPLE)
			),
		);
		const uploadMany = uploadManyWorkflow(UPLOAD_ITEMS);
		const longWait = longWaitWorkflow();
		const submitCollect = submitCollectCopies(RESTART.products, {
			secondsARunHolds: RESTART.secondsARunHolds,
		});
		for (const version of versions()) {
			const mode = binaryMode(version);
			info(`n8n ${version}, queue mode, binary data mode ${mode}`);
			const stack = await startStack({
				install: installs.n8n[version],
				tarball,
				workDir: path.join(workRoot, version),
				servers,
				service: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
				llm: { baseUrl: llm.baseUrl, apiKey: llm.apiKey },
				binaryMode: mode,
				workflows: [
					...examples,
					manual,
					uploadMany,
					longWait,
					fanOut,
					submitCollect.submit,
					submitCollect.collect,
				],
				workers: 2,
				workerConcurrency: WORKER_CONCURRENCY,
			});
			/** @type {import('./scenarios/context').Context} */
			const ctx = {
				stack,
				sim,
				report: (line) => {
					measured.push(`n8n ${version} (${mode}): ${line}`);
					info(`measured: ${line}`);
				},
				check: (ok, what) => {
					checks += 1;
					info(`${ok ? 'ok' : 'FAILED'}: ${what}`);
					if (!ok) failures.push(`n8n ${version}: ${what}`);
				},
			};
			try {
				if (selected('examples')) await runExamples(ctx, examples);
				if (selected('manual')) await runManual(ctx, manual);
				if (selected('upload')) await runUploadMany(ctx, uploadMany, UPLOAD_ITEMS);
				if (selected('stop')) await runStop(ctx, longWait);
				if (selected('fan-out')) await fanOutScenario(ctx, fanOut, stack.workers);
				if (selected('outage')) await runOutage(ctx, submitCollect);
				// Kills a worker: the last scenario on this stack.
				if (selected('restart')) await runRestart(ctx, submitCollect, RESTART);
			} catch (err) {
				failures.push(`n8n ${version}: ${/** @type {Error} */ (err).message}`);
				info(`logs kept in ${stack.logDir}`);
			} finally {
				await stack.stop();
			}
		}
	} finally {
		await sim.stop();
		await llm.stop();
	}
	process.stdout.write(
		`\nQueue-mode suite, measured:\n${measured.map((l) => `  ${l}`).join('\n')}\n`,
	);
	if (checks === 0) failures.push('no check ran: nothing was tested');
	if (failures.length) {
		process.stdout.write(
			`\nFAILED (work folder kept: ${workRoot}):\n${failures.map((f) => `  - ${f}`).join('\n')}\n`,
		);
		process.exitCode = 1;
		return;
	}
	const machine = `${os.cpus().length} cores, ${formatDuration(Date.now() - started)} for the whole run`;
	if (!ONLY && process.argv.includes(WRITE_README) && writeReadmeFigures(measured, machine))
		info('figures updated in docs/large-catalogues.md');
	if (process.env.PRODUCT_IMAGE_E2E_KEEP !== '1')
		fs.rmSync(workRoot, { recursive: true, force: true });
	process.stdout.write(`\nqueue-mode suite passed in ${formatDuration(Date.now() - started)}\n`);
}

main().catch((err) => {
	process.stderr.write(`\nqueue-mode suite: ${err.message}\n`);
	process.exit(1);
});
