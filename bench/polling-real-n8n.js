#!/usr/bin/env node
// @ts-check
'use strict';

/*
 * Adaptive against Fixed Interval status checks in a real n8n 2.41.0, headless (`n8n execute`), in
 * every order the polling bench runs (bench/pollingOrders.ts): generations (Image → Generate and
 * Wait, node version 2) in the order's lanes (Items in Parallel). The simulator serves the tasks:
 * the nth task submitted takes the nth duration. PRODUCT_IMAGE_BENCH_SCALE shortens every
 * duration, Check Interval and First Check After by one factor for a quick run (the figures say
 * which); PRODUCT_IMAGE_BENCH_ORDERS runs only the orders it names (the table lists those run).
 *
 * Per run: the node's wall time ÷ the ideal (the lanes always busy, each finish seen at once: a
 * greedy schedule of the durations in submit order over the lanes), status queries ÷ the fixed
 * poller's on the same order, the service's last finish from the node's start ÷ the ideal (what
 * lanes left idle cost, before the last finish is seen), and the detection delay of each task (the
 * status query that found it finished, less its finish).
 *
 * n8n 2.41.0 must already be installed (`npm run test:e2e` installs it). The simulator and every
 * n8n process listen on loopback only, on free ports, with a private user folder that is removed
 * afterwards. PRODUCT_IMAGE_BENCH_WRITE_DOCS=1 writes the figures into docs/polling.md, between
 * its real-n8n-figures markers.
 */

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startSimulator } = require('../test/simulator');
const { ensureInstalled, isInstalled } = require('../test/e2e/install-n8n');
const { build, pack } = require('../test/e2e/install-package');
const { prepareUserFolder, makeWorkRoot } = require('../test/e2e/lib/suite');
const { CREDENTIAL } = require('../test/e2e/lib/workflows');
require('./ts-require');
/** @type {{ ORDERS: Array<{ name: string, durations: string, lanes: number, seconds: number[] }> }} */
const { ORDERS } = require('./pollingOrders');

const VERSION = '2.41.0';
const SCALE = Number(process.env.PRODUCT_IMAGE_BENCH_SCALE ?? 1);
const CHECK_INTERVAL_S = 5 * SCALE;
const DOCS = path.resolve(__dirname, '..', 'docs', 'polling.md');
const START = '<!-- real-n8n-figures:start -->';
const END = '<!-- real-n8n-figures:end -->';

/** @typedef {(typeof ORDERS)[number]} Order */

const durationsMs = (/** @type {Order} */ order) =>
	order.seconds.map((seconds) => Math.round(seconds * SCALE * 1000));

/** The batch's end if every lane were busy from the start and every finish seen at once. */
function idealMs(/** @type {number[]} */ durations, /** @type {number} */ lanes) {
	const free = new Array(lanes).fill(0);
	for (const duration of durations) {
		const first = free.indexOf(Math.min(...free));
		free[first] += duration;
	}
	return Math.max(...free);
}

/** @param {string} id @param {Order} order @param {'adaptive' | 'fixed'} polling */
function workflow(id, order, polling) {
	const link = (/** @type {string} */ node) => ({ main: [[{ node, type: 'main', index: 0 }]] });
	return {
		id,
		name: `Polling bench ${id}`,
		active: false,
		settings: {},
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', 1, {}),
			node('Products', 'n8n-nodes-base.code', 2, {
				jsCode: `return Array.from({ length: ${order.seconds.length} }, (_, i) => ({ json: { n: i + 1 } }));`,
			}),
			{
				...node('Generate', 'n8n-nodes-product-image.productImage', 2, generate(order, polling)),
			},
		].map((n, i) => ({ ...n, position: [i * 220, 0] })),
		connections: { Start: link('Products'), Products: link('Generate') },
	};
}

/** @param {string} name @param {string} type @param {number} typeVersion @param {object} parameters */
function node(name, type, typeVersion, parameters) {
	const credentials = type.startsWith('n8n-nodes-product-image')
		? { productImageApi: { ...CREDENTIAL } }
		: undefined;
	return { id: name.toLowerCase(), name, type, typeVersion, parameters, credentials };
}

/** Image → Generate and Wait in the order's lanes, the given Status Checks. */
function generate(/** @type {Order} */ order, /** @type {'adaptive' | 'fixed'} */ polling) {
	return {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: "={{ 'Catalogue photo of product ' + $json.n + ', white background' }}",
		size: '1:1',
		resolution: '1k',
		productDetails: { productName: "={{ 'Product ' + $json.n }}" },
		options: {
			maxConcurrency: order.lanes,
			waiting: {
				value: { polling, pollInterval: CHECK_INTERVAL_S, initialDelay: CHECK_INTERVAL_S },
			},
		},
	};
}

/** PRODUCT_IMAGE_BENCH_ORDERS: only the orders named, comma-separated (all when unset). */
const CHOSEN = process.env.PRODUCT_IMAGE_BENCH_ORDERS?.split(',');
const RUNS = ORDERS.filter((order) => !CHOSEN || CHOSEN.includes(order.name)).flatMap((order) =>
	/** @type {const} */ (['adaptive', 'fixed']).map((polling) => ({ order, polling })),
);

const runId = (/** @type {(typeof RUNS)[number]} */ r) =>
	`bench-${r.order.name.replace(/\W+/g, '-')}-${r.polling}`;

/** The packed package in a fresh user folder with the simulator's credential and the runs' workflows. */
async function prepare(/** @type {string} */ workRoot, /** @type {any} */ sim) {
	if (!isInstalled(VERSION))
		throw new Error(`n8n ${VERSION} is not installed: run \`npm run test:e2e\` once first`);
	const installs = await ensureInstalled([VERSION]);
	if (process.env.PRODUCT_IMAGE_E2E_SKIP_BUILD !== '1') await build();
	const tarball = await pack({ node: installs.node, destination: path.join(workRoot, 'pack') });
	const { n8n } = await prepareUserFolder({
		install: installs.n8n[VERSION],
		tarball,
		userFolder: path.join(workRoot, 'user'),
		service: sim,
		examples: [],
		copies: () => RUNS.map((r) => workflow(runId(r), r.order, r.polling)),
	});
	return n8n;
}

/**
 * What the simulator saw of one run: each task's finish and the last status query about it, the
 * one that found it finished (the node asks no more after that).
 */
function taskFigures(/** @type {any} */ sim) {
	/** @type {Map<string, number>} */
	const last = new Map();
	for (const q of sim.stats.requests)
		if (q.route === 'task') last.set(decodeURIComponent(q.path.split('/').pop()), q.at);
	return [...sim.tasks.values()].map((task) => ({
		finish: task.createdAt + task.durationMs,
		seenAt: last.get(task.task_id) ?? NaN,
	}));
}

/** One workflow run in its own `n8n execute`, the simulator fresh and set to the order's durations. */
async function measure(
	/** @type {any} */ n8n,
	/** @type {any} */ sim,
	/** @type {(typeof RUNS)[number]} */ r,
) {
	sim.reset();
	sim.configure({ taskDurationsMs: durationsMs(r.order) });
	const result = await n8n.executeWorkflow(runId(r), { timeoutMs: 600000 });
	const [nodeRun] = result.runData.Generate ?? [];
	if (!result.ok || !nodeRun || nodeRun.error)
		throw new Error(
			`${runId(r)} failed: ${result.stderr.slice(-2000) || result.stdout.slice(-2000)}`,
		);
	const tasks = taskFigures(sim);
	// A query that arrived a moment before the finish may be answered just after it.
	if (tasks.length !== r.order.seconds.length || tasks.some((t) => !(t.seenAt >= t.finish - 50)))
		throw new Error(`${runId(r)}: ${tasks.length} tasks, not all seen finished`);
	const inOrder = tasks.map((t) => Math.max(0, t.seenAt - t.finish));
	return {
		...r,
		wallMs: nodeRun.executionTime,
		lastFinishMs: Math.max(...tasks.map((t) => t.finish)) - nodeRun.startTime,
		idealMs: idealMs(durationsMs(r.order), r.order.lanes),
		queries: sim.stats.byRoute.task ?? 0,
		inOrder,
		delaysMs: [...inOrder].sort((a, b) => a - b),
	};
}

const quantile = (/** @type {number[]} */ sorted, /** @type {number} */ q) =>
	sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const seconds = (/** @type {number} */ ms) => (ms / 1000).toFixed(1);

/** @param {Awaited<ReturnType<typeof measure>>[]} results */
function figures(results) {
	return results.map((r) => {
		const fixed = results.find((f) => f.order === r.order && f.polling === 'fixed');
		return {
			...r,
			ratio: r.wallMs / r.idealMs,
			fixedRatio: (fixed?.wallMs ?? NaN) / r.idealMs,
			queriesRatio: r.queries / (fixed?.queries ?? NaN),
			medianMs: quantile(r.delaysMs, 0.5),
			p90Ms: quantile(r.delaysMs, 0.9),
		};
	});
}

const load = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(1))
		.join(', ');

/** @param {ReturnType<typeof figures>} rows @param {number} totalMs @param {string} loadBefore */
function table(rows, totalMs, loadBefore) {
	const lines = [
		`Measured by \`npm run bench:polling-n8n\` in n8n ${VERSION} (\`n8n execute\`, ${os.cpus().length} cores, node ${process.version}, load average ${loadBefore} at the start and ${load()} at the end, time scale ${SCALE}${SCALE === 1 ? '' : ': every duration, interval and delay multiplied by it'}, ${seconds(totalMs)} s in all): Check Interval and First Check After ${CHECK_INTERVAL_S} s.`,
		'',
		'| order | status checks | wall ÷ ideal | last finish ÷ ideal | ideal | queries | ÷ fixed | detection median | p90 |',
		'|---|---|---|---|---|---|---|---|---|',
	];
	for (const r of rows)
		lines.push(
			`| ${r.order.name} (${r.order.seconds.length} of ${r.order.durations}, ${r.order.lanes} in parallel) | ${r.polling} | ${r.ratio.toFixed(3)}× | ${(r.lastFinishMs / r.idealMs).toFixed(3)}× | ${seconds(r.idealMs)} s | ${r.queries} | ${r.queriesRatio.toFixed(2)} | ${seconds(r.medianMs)} s | ${seconds(r.p90Ms)} s |`,
		);
	const met = (/** @type {boolean} */ ok) => (ok ? 'met' : 'NOT met');
	lines.push(
		'',
		'Goals of Adaptive against the fixed poller of the same Check Interval, in every order:',
		'',
	);
	for (const r of rows.filter((row) => row.polling === 'adaptive'))
		lines.push(
			`- ${r.order.name}: wall ≤ 1.05× the ideal: ${r.ratio.toFixed(3)}× (the fixed poller ${r.fixedRatio.toFixed(3)}×), ${met(r.ratio <= 1.05)}; ≤ 1.5× the fixed poller's queries: ${r.queriesRatio.toFixed(2)}×, ${met(r.queriesRatio <= 1.5)}`,
		);
	lines.push(
		'',
		"Last finish: when the service finished the batch's last task, from the node's start; the ideal counts no time for submits, downloads or n8n itself.",
	);
	return lines.join('\n');
}

function writeDocs(/** @type {string} */ text) {
	const page = fs.readFileSync(DOCS, 'utf8');
	const block = `${START}\n<!-- Written by bench/polling-real-n8n.js; edits here are overwritten. -->\n${text}\n${END}`;
	const at = page.indexOf(START);
	const end = page.indexOf(END);
	const next =
		at >= 0 && end > at
			? page.slice(0, at) + block + page.slice(end + END.length)
			: `${page.trimEnd()}\n\n## In a real n8n\n\n${block}\n`;
	fs.writeFileSync(DOCS, next);
}

async function main() {
	const started = Date.now();
	const loadBefore = load();
	const workRoot = makeWorkRoot('product-image-polling-n8n');
	const sim = await startSimulator({ taskDurationMs: 1000 });
	try {
		const n8n = await prepare(workRoot, sim);
		const results = [];
		for (const r of RUNS) {
			results.push(await measure(n8n, sim, r));
			const { wallMs, inOrder } = results[results.length - 1];
			console.log(
				`${runId(r)}: ${seconds(wallMs)} s; detection delays in submit order (s): ${inOrder.map(seconds).join(' ')}`,
			);
		}
		const text = table(figures(results), Date.now() - started, loadBefore);
		console.log(`\n${text}`);
		if (process.env.PRODUCT_IMAGE_BENCH_WRITE_DOCS === '1') writeDocs(text);
	} finally {
		await sim.close();
		fs.rmSync(workRoot, { recursive: true, force: true });
	}
}

main().catch((err) => {
	console.error(`bench:polling-n8n failed: ${err instanceof Error ? err.message : String(err)}`);
	process.exitCode = 1;
});
