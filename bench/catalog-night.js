#!/usr/bin/env node
// @ts-check
'use strict';

// A catalog night, measured: the submit/collect pair from examples/ in n8n 2.41 queue mode
// (Postgres, Redis, one main process, two workers), against the simulator held to a service rate
// limit. The submit run is started as its nightly schedule would, collect sweeps follow every few
// seconds (the 15-minute schedule, compressed), the service goes down for a few minutes during a
// sweep, and the worker running the submit run is killed and restarted as a supervisor would. At
// the end, every product is checked against the service's own submit log and the Data Table, and
// the cost is read from n8n's database and the processes' memory.
//
//   npm run bench:catalog -- [--products 10000] [--submits-per-minute N] [--tasks-in-flight N]
//     [--task-seconds N] [--task-spread-seconds N] [--products-per-page N] [--pages-per-run N]
//     [--seconds-per-batch N]
//     [--submit-every-seconds N]
//     [--sweep-seconds N] [--outage-seconds N]
//     [--outage-scope all|task] [--outage-at 0.6] [--kill-at 0.3] [--restart-after-seconds N]
//     [--per-run-runs 2] [--per-run-products 100000]
//     [--n8n-env KEY=VALUE]... [--no-docs] [--keep]
//   npm run bench:catalog -- --from <work folder>/measured.json   (a kept night's figures again)
//
// --outage-seconds 0 and --kill-at 0 leave the outage and the kill out.
// It writes its figures into docs/large-catalogues.md between the catalog-bench markers (not with
// --no-docs), and exits non-zero when a product was lost or submitted twice, or the night did not
// finish. It is not part of `npm test`.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cacheDir } = require('../test/e2e/lib/config');
const { preparePackageAndN8n } = require('../test/e2e/lib/suite');
const { startSimulator } = require('../test/e2e/lib/simulator');
const { stopChildrenOnSignal } = require('../test/e2e/lib/proc');
const { info, formatDuration } = require('../test/e2e/lib/log');
const { ensureServers } = require('../test/queue/lib/system-packages');
const { startStack } = require('../test/queue/lib/stack');
const { sampleMemoryTrees } = require('../test/queue/lib/memory');
const { writeFiguresBetween } = require('../test/queue/lib/readme-figures');
const {
	submitCollectCopies,
	CATALOG_FIRST_ID,
	RUNS,
	TASKS_TABLE,
	tasksColumnsFor,
} = require('../test/queue/lib/workflows');
const { runNight } = require('./catalog/night');
const { report } = require('./catalog/report');
const figures = require('./catalog/figures');
const { tableIdOf, storeReads } = require('./catalog/figures');
const { openRowTest } = require('./catalog/open-rows');
const { measurePerRun, perRunMedians } = require('./catalog/per-run');

const N8N_VERSION = '2.41.0';

// The spec states no rate limit: these are a plausible service's. At 600 submits a minute the
// limit's bound for 10,000 products is 17 minutes. A service that takes 600 generations of up to
// 60 s a minute holds up to 600 unfinished: 800 tasks in flight leave the submit limit the one that
// binds, so the night measures the workflow against it.
const DEFAULTS = {
	products: 10000,
	submitsPerMinute: 600,
	tasksInFlight: 800,
	// Generations of 20 to 60 s.
	taskSeconds: 20,
	taskSpreadSeconds: 40,
	// The submit example's Settings → productsPerPage (a page of Shopify's at most), pagesPerRun
	// and secondsPerBatch, and its schedule as saved: a tick every minute.
	productsPerPage: 250,
	pagesPerRun: 4,
	secondsPerBatch: 1,
	submitEverySeconds: 60,
	sweepSeconds: 60,
	// As long as the collect example's Max Wait Time: a wait under way when the service goes down
	// reaches its time limit while it is still down.
	outageSeconds: 300,
	/** @type {'all' | 'task'} */
	outageScope: 'all',
	// Fractions of the catalog recorded in the Data Table.
	outageAt: 0.6,
	killAt: 0.3,
	restartAfterSeconds: 10,
	// Before the night: this many submit runs at the night's catalog size and at this larger one,
	// each late in a night (0 leaves the per-run figures out).
	perRunRuns: 2,
	perRunProducts: 100000,
	docs: true,
	keep: false,
	/** @type {Record<string, string>} n8n settings to try (`--n8n-env KEY=VALUE`, repeatable) */
	n8nEnv: {},
	/** @type {string | undefined} a measured.json a night left: its figures again, nothing run */
	from: undefined,
};

/** @typedef {typeof DEFAULTS} Options */

/** The submits a run sends together: secondsPerBatch of the limit, as the example's batch size says. @param {Options} o */
const batchOf = (o) => Math.max(1, Math.ceil((o.submitsPerMinute * o.secondsPerBatch) / 60));

/** @param {string[]} argv @returns {Options} */
function parseArgs(argv) {
	/** @type {Record<string, unknown>} */
	const o = { ...DEFAULTS };
	for (let i = 0; i < argv.length; i++) {
		const name = argv[i].replace(/^--/, '').replace(/-([a-z])/g, (_, c) => c.toUpperCase());
		if (name === 'noDocs') o.docs = false;
		else if (name === 'keep') o.keep = true;
		else if (name === 'from') o.from = argv[++i];
		else if (name === 'n8nEnv') {
			const [key, ...value] = String(argv[++i]).split('=');
			if (!/^[A-Z0-9_]+$/.test(key) || value.length === 0)
				throw new Error('--n8n-env needs KEY=VALUE');
			o.n8nEnv = { .../** @type {Record<string, string>} */ (o.n8nEnv), [key]: value.join('=') };
		} else if (name === 'outageScope') {
			const scope = argv[++i];
			if (scope !== 'all' && scope !== 'task')
				throw new Error(`--outage-scope is all or task, not ${scope}`);
			o.outageScope = scope;
		} else if (name in DEFAULTS && typeof o[name] === 'number') {
			const value = Number(argv[++i]);
			if (!Number.isFinite(value) || value < 0) throw new Error(`--${argv[i - 1]} needs a number`);
			o[name] = value;
		} else throw new Error(`unknown option ${argv[i]}`);
	}
	const options = /** @type {Options} */ (o);
	if (!Number.isInteger(options.products) || options.products < 1)
		throw new Error('--products needs a whole number of at least 1');
	if (options.submitsPerMinute < 1) throw new Error('--submits-per-minute needs at least 1');
	return options;
}

/**
 * Prints the figures, writes them into the page (unless --no-docs), and names what failed.
 * @param {Parameters<typeof report>[0] & {machine: string}} measured @param {boolean} docs
 */
function publish(measured, docs) {
	const { lines, capacity, problems } = report(measured);
	process.stdout.write(
		`\nCatalog night, measured:\n${[...lines, ...capacity].map((l) => `  ${l}`).join('\n')}\n`,
	);
	const written =
		docs &&
		writeFiguresBetween({
			marker: 'catalog-bench',
			command: 'npm run bench:catalog',
			when: measured.machine,
			lines,
		});
	const capacityWritten =
		written &&
		writeFiguresBetween({
			marker: 'catalog-capacity',
			command: 'npm run bench:catalog',
			when: measured.machine,
			lines: capacity,
		});
	if (written)
		info(
			`figures written into docs/large-catalogues.md${capacityWritten ? '' : ' (no capacity markers)'}`,
		);
	if (problems.length)
		process.stdout.write(`\nFAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
	return problems;
}

/** The service held to the bench's limits (again after a reset). @param {Awaited<ReturnType<typeof startSimulator>>} sim @param {Options} options */
const configureService = (sim, options) =>
	sim.configure({
		taskDurationMs: options.taskSeconds * 1000,
		taskDurationSpreadMs: options.taskSpreadSeconds * 1000,
		imagesPerTask: 1,
		submitsPerMinute: options.submitsPerMinute,
		tasksInFlight: options.tasksInFlight,
	});

/**
 * @typedef {object} Bench
 * @property {Options} options
 * @property {Awaited<ReturnType<typeof startStack>>} stack
 * @property {Awaited<ReturnType<typeof startSimulator>>} sim
 * @property {ReturnType<typeof submitCollectCopies>} copies
 * @property {string} tableId
 * @property {string} runsTableId
 * @property {string} n8nDir where the n8n it runs is installed
 */

/**
 * The submit runs one at a time at the night's catalog size and the larger one, then everything
 * cleared for the night: no row, no run state, nothing at the service.
 * @param {Bench} b
 */
async function perRunPhase(b) {
	const { options, stack, sim } = b;
	const perRun =
		options.perRunRuns > 0
			? perRunMedians(
					await measurePerRun(
						{
							stack,
							sim,
							configureService: () => configureService(sim, options),
							submit: b.copies.submit,
							tableId: b.tableId,
							runsTableId: b.runsTableId,
							productsPerRun: Math.min(250, options.productsPerPage) * options.pagesPerRun,
							batch: batchOf(options),
							firstId: CATALOG_FIRST_ID,
						},
						[options.products, options.perRunProducts],
						options.perRunRuns,
					),
				)
			: [];
	await stack.sql(`delete from ${figures.tableName(b.tableId)}`);
	await stack.sql(`delete from ${figures.tableName(b.runsTableId)}`);
	await sim.reset();
	await configureService(sim, options);
	return perRun;
}

/**
 * The night, and what it left, read from the simulator, the Data Table and n8n's database.
 * @param {Bench} b @param {Awaited<ReturnType<typeof perRunPhase>>} perRun
 */
async function measureNight(b, perRun) {
	const { options, stack, sim, copies } = b;
	const nightFrom = await figures.lastExecutionId(stack);
	const openRows = openRowTest(copies.collect.workflow);
	info(`rows the collect workflow looks at again: ${openRows.describe}`);
	const memory = sampleMemoryTrees(() => [
		{ name: 'main', pid: stack.main.child.pid },
		...stack.workers,
	]);
	// The machine's load while the night ran: the cores are shared with other work.
	const load = /** @type {number[]} */ ([]);
	const loadTimer = setInterval(() => load.push(os.loadavg()[0]), 10_000);
	const night = await runNight({ ...b, isOpen: openRows.test }).finally(() => {
		memory.stop();
		clearInterval(loadTimer);
	});
	const tasks = await sim.tasks();
	const rows = await figures.tableRows(stack, b.tableId);
	return {
		machine: '',
		options,
		night,
		memory: memory.peak(),
		products: figures.productFigures({
			products: Array.from({ length: options.products }, (_, i) => `Product ${i + 1}`),
			tasks,
			rows,
			isOpen: openRows.test,
		}),
		service: figures.serviceFigures(await sim.stats(), tasks),
		paces: figures.runPaces(night.submitRuns, tasks, batchOf(options)),
		database: await figures.databaseFigures(stack, b.tableId, nightFrom),
		storeReads: await storeReads(stack, copies.submit.workflow.id, nightFrom, b.n8nDir),
		perRun,
		load: load.length
			? {
					median: load.sort((x, y) => x - y)[Math.floor(load.length / 2)],
					max: load[load.length - 1],
				}
			: undefined,
		workflows: { submit: copies.submit.workflow.id, collect: copies.collect.workflow.id },
	};
}

/**
 * The stack with the pair imported and both Data Tables.
 * @param {Options} options @param {Awaited<ReturnType<typeof startSimulator>>} sim
 * @param {{installs: any, tarball: string, workRoot: string, servers: any}} where
 * @param {(stack: Bench['stack']) => void} started
 * @returns {Promise<Bench>}
 */
async function startBench(options, sim, where, started) {
	await configureService(sim, options);
	// The operator's setting for the limit is the limit itself.
	const copies = submitCollectCopies(options.products, {
		waitOptions: null,
		collectResponse: 'onReceived',
		submitsPerMinute: options.submitsPerMinute,
		productsPerPage: options.productsPerPage,
		pagesPerRun: options.pagesPerRun,
		secondsPerBatch: options.secondsPerBatch,
	});
	const stack = await startStack({
		install: where.installs.n8n[N8N_VERSION],
		tarball: where.tarball,
		workDir: path.join(where.workRoot, N8N_VERSION),
		servers: where.servers,
		service: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		binaryMode: 'database',
		workflows: [copies.submit, copies.collect],
		workers: 2,
		env: options.n8nEnv,
	});
	started(stack);
	const table = await stack.rest.createDataTable(
		TASKS_TABLE,
		tasksColumnsFor([copies.submit.workflow, copies.collect.workflow]),
	);
	const runsTableId = await tableIdOf(stack, RUNS.name);
	return {
		options,
		stack,
		sim,
		copies,
		tableId: String(table.id),
		runsTableId,
		n8nDir: where.installs.n8n[N8N_VERSION].dir,
	};
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	if (options.from) {
		// The figures of a night already run, read again (a change of wording needs no new night).
		const measured = JSON.parse(fs.readFileSync(options.from, 'utf8'));
		if (publish(measured, options.docs).length) process.exitCode = 1;
		return;
	}
	stopChildrenOnSignal();
	const started = Date.now();
	const servers = await ensureServers();
	const benchCache = path.join(cacheDir(), 'queue');
	fs.mkdirSync(benchCache, { recursive: true });
	const workRoot = fs.mkdtempSync(path.join(benchCache, 'catalog-'));
	info(`work folder ${workRoot}`);
	const { installs, tarball } = await preparePackageAndN8n({ versions: [N8N_VERSION], workRoot });
	const sim = await startSimulator();
	/** @type {Bench['stack'] | undefined} */
	let stack;
	let failed = true;
	try {
		const where = { installs, tarball, workRoot, servers };
		const bench = await startBench(options, sim, where, (s) => (stack = s));
		const measured = await measureNight(bench, await perRunPhase(bench));
		const load = measured.load
			? `, load average during the night median ${measured.load.median.toFixed(1)}, highest ${measured.load.max.toFixed(1)}`
			: '';
		measured.machine = `${os.cpus().length} cores shared with other work${load}, ${formatDuration(Date.now() - started)} for the whole run`;
		// Kept with the work folder: the figures survive a report that fails to read them, and
		// --from reads them again.
		fs.writeFileSync(path.join(workRoot, 'measured.json'), JSON.stringify(measured, null, 1));
		if (publish(measured, options.docs).length) process.exitCode = 1;
		else {
			failed = false;
			process.stdout.write(`\ncatalog night passed in ${formatDuration(Date.now() - started)}\n`);
		}
	} finally {
		if (stack) {
			if (failed) info(`logs kept in ${stack.logDir}`);
			await stack.stop();
		}
		await sim.stop();
		if (!failed && !options.keep) fs.rmSync(workRoot, { recursive: true, force: true });
		else info(`work folder kept: ${workRoot}`);
	}
}

main().catch((err) => {
	process.stderr.write(`\ncatalog night: ${err.stack ?? err.message}\n`);
	process.exit(1);
});
