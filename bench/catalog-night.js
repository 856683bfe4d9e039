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
//     [--task-seconds N] [--task-spread-seconds N] [--products-per-run N] [--submit-every-seconds N]
//     [--sweep-seconds N] [--outage-seconds N]
//     [--outage-scope all|task] [--outage-at 0.6] [--kill-at 0.3] [--restart-after-seconds N]
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
	TASKS_TABLE,
	tasksColumnsFor,
} = require('../test/queue/lib/workflows');
const { runNight } = require('./catalog/night');
const { report } = require('./catalog/report');
const figures = require('./catalog/figures');
const { openRowTest } = require('./catalog/open-rows');

const N8N_VERSION = '2.41.0';

// The spec states no rate limit: these are a plausible service's. At 120 submits a minute the
// limit alone would hold 10,000 products for 83 minutes; at 600 its bound is 17 minutes, below what
// the one-product-at-a-time loop itself takes on 2 shared cores (169-227 a minute with its pause at
// 0.1 s, docs/large-catalogues.md), so the night measures the workflow rather than the limit.
const DEFAULTS = {
	products: 10000,
	submitsPerMinute: 600,
	tasksInFlight: 200,
	// Generations of 20 to 60 s.
	taskSeconds: 20,
	taskSpreadSeconds: 40,
	// The submit example's Settings → productsPerRun for the night, and its 10-minute schedule
	// compressed: a run of 500 at the limit's pace of 0.1 s and the 0.16-0.26 s a product the loop
	// itself took (docs/large-catalogues.md) lasts about 3 minutes.
	productsPerRun: 500,
	submitEverySeconds: 240,
	sweepSeconds: 120,
	// As long as the collect example's Max Wait Time: a wait under way when the service goes down
	// reaches its time limit while it is still down.
	outageSeconds: 300,
	/** @type {'all' | 'task'} */
	outageScope: 'all',
	// Fractions of the catalog recorded in the Data Table.
	outageAt: 0.6,
	killAt: 0.3,
	restartAfterSeconds: 10,
	docs: true,
	keep: false,
	/** @type {Record<string, string>} n8n settings to try (`--n8n-env KEY=VALUE`, repeatable) */
	n8nEnv: {},
	/** @type {string | undefined} a measured.json a night left: its figures again, nothing run */
	from: undefined,
};

/** @typedef {typeof DEFAULTS} Options */

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
	const { lines, problems } = report(measured);
	process.stdout.write(`\nCatalog night, measured:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
	const written =
		docs &&
		writeFiguresBetween({
			marker: 'catalog-bench',
			command: 'npm run bench:catalog',
			when: measured.machine,
			lines,
		});
	if (written) info('figures written into docs/large-catalogues.md');
	if (problems.length)
		process.stdout.write(`\nFAILED:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
	return problems;
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
	/** @type {Awaited<ReturnType<typeof startStack>> | undefined} */
	let stack;
	let failed = true;
	try {
		await sim.configure({
			taskDurationMs: options.taskSeconds * 1000,
			taskDurationSpreadMs: options.taskSpreadSeconds * 1000,
			imagesPerTask: 1,
			submitsPerMinute: options.submitsPerMinute,
			tasksInFlight: options.tasksInFlight,
		});
		// The operator's one setting for the limit: one submit per 60 / limit seconds.
		const copies = submitCollectCopies(options.products, {
			waitOptions: null,
			collectResponse: 'onReceived',
			secondsBetweenSubmits: 60 / options.submitsPerMinute,
			productsPerRun: options.productsPerRun,
		});
		stack = await startStack({
			install: installs.n8n[N8N_VERSION],
			tarball,
			workDir: path.join(workRoot, N8N_VERSION),
			servers,
			service: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
			binaryMode: 'database',
			workflows: [copies.submit, copies.collect],
			workers: 2,
			env: options.n8nEnv,
		});
		const table = await stack.rest.createDataTable(
			TASKS_TABLE,
			tasksColumnsFor([copies.submit.workflow, copies.collect.workflow]),
		);
		const openRows = openRowTest(copies.collect.workflow);
		info(`rows the collect workflow looks at again: ${openRows.describe}`);
		const running = stack;
		const memory = sampleMemoryTrees(() => [
			{ name: 'main', pid: running.main.child.pid },
			...running.workers,
		]);
		const night = await runNight({
			stack,
			sim,
			copies,
			tableId: String(table.id),
			isOpen: openRows.test,
			options,
		}).finally(() => memory.stop());

		const tasks = await sim.tasks();
		const rows = await figures.tableRows(stack, String(table.id));
		const measured = {
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
			paces: figures.runPaces(night.submitRuns, tasks),
			database: await figures.databaseFigures(stack, String(table.id)),
			workflows: { submit: copies.submit.workflow.id, collect: copies.collect.workflow.id },
		};
		measured.machine = `${os.cpus().length} cores, ${formatDuration(Date.now() - started)} for the whole run`;
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
