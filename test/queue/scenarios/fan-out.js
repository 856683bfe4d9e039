// @ts-check
'use strict';

// The catalogue fan-out example over the workers that are running: every image stored once in
// the Data Table, every product submitted exactly once, wall time and each worker's peak memory.

const fs = require('node:fs');
const { callWebhook } = require('../lib/rest');
const { finishedExecutions, workersOf, unsuccessful } = require('../lib/executions');
const { sampleMemory } = require('../lib/memory');
const { submitsPerProduct } = require('../lib/submits');
const { FAN_OUT_TABLE } = require('../lib/workflows');
const { LOADED_BATCH_MS } = require('../../e2e/lib/waits');

const COLUMNS = /** @type {const} */ ([
	{ name: 'catalogue_run', type: 'string' },
	{ name: 'product_id', type: 'string' },
	{ name: 'task_id', type: 'string' },
	{ name: 'image_index', type: 'number' },
	{ name: 'image_url', type: 'string' },
	{ name: 'file_size', type: 'string' },
]);

/** @param {import('./context').Context} ctx */
async function createFanOutTable(ctx) {
	return ctx.stack.rest.createDataTable(FAN_OUT_TABLE, [...COLUMNS]);
}

/**
 * @param {import('./context').Context} ctx
 * @param {{workflow: any, webhookPath: string}} copy
 * @param {{products: number, images: number, batchSize: number, table: Awaited<ReturnType<typeof createFanOutTable>>, workers: {name: string, pid?: number, logFile: string}[], submit429sEach?: number}} o
 */
async function runFanOut(ctx, copy, o) {
	await ctx.sim.reset();
	await ctx.sim.configure({ imagesPerTask: o.images, taskDurationMs: 300 });
	// A storm: each product's first submits answer 429 with Retry-After 1. Counted per product,
	// not over the run: a run-wide count lands on whichever submits come first, and on a loaded
	// machine, where the batches reach the node seconds apart, the first batch can take them round
	// after round until one product has had the four a submit is given (docs/reliability.md), and
	// its batch fails as the node promises.
	if (o.submit429sEach)
		await ctx.sim.faults({
			route: 'submit',
			status: 429,
			retryAfter: '1',
			times: o.submit429sEach,
			each: true,
		});
	const backoffsBefore = o.workers.map((w) => submitBackoffs(w.logFile));
	const before = (await ctx.stack.rest.executions(copy.workflow.id)).length;
	const batches = Math.ceil(o.products / o.batchSize);
	const memory = sampleMemory(o.workers);
	const started = Date.now();
	const reply = await callWebhook(ctx.stack.baseUrl, copy.webhookPath);
	const executions = (
		await finishedExecutions(
			ctx.stack.rest,
			copy.workflow.id,
			before + 1 + batches,
			LOADED_BATCH_MS,
		)
	).slice(0, 1 + batches);
	ctx.check(reply.status === 200, `the catalogue webhook answered (HTTP ${reply.status})`);
	const wallMs = Date.now() - started;
	const peak = memory.stop();
	const failed = await unsuccessful(ctx.stack, executions);
	// The catalogue run is the id of the execution that split the catalogue: the first one.
	const run = String(Math.min(...executions.map((e) => Number(e.id))));

	const rows = (await o.table.rows()).filter((r) => String(r.catalogue_run) === run);
	const images = new Set(
		rows
			.filter((r) => typeof r.file_size === 'string' && r.file_size !== '')
			.map((r) => `${r.product_id}#${r.image_index}`),
	);
	const submits = await submitsPerProduct(ctx.sim);
	const once = [...submits.values()].filter((n) => n === 1).length;
	const workers = workersOf(ctx.stack.workers, executions);
	/** @type {Record<string, number>} */
	const perWorker = {};
	for (const w of workers) perWorker[w] = (perWorker[w] ?? 0) + 1;

	const backoffs = o.workers.map(
		(w, i) => `${w.name} ${submitBackoffs(w.logFile) - backoffsBefore[i]}`,
	);
	const label = `${o.workers.length} worker${o.workers.length > 1 ? 's' : ''}${o.submit429sEach ? ` with each product's first ${o.submit429sEach === 1 ? 'submit' : `${o.submit429sEach} submits`} answered 429` : ''}`;
	ctx.report(
		`fan-out ${o.products} products x ${o.images} images in ${batches} batches over ${label}: ${(wallMs / 1000).toFixed(1)} s; ` +
			`executions per worker ${JSON.stringify(perWorker)}; peak worker memory ${Object.entries(peak)
				.map(([n, mb]) => `${n} ${mb.toFixed(0)} MiB`)
				.join(', ')}; ` +
			`${images.size} images stored, ${once} of ${o.products} products submitted exactly once; submit back-offs ${backoffs.join(', ')}; ` +
			`most 429s on one product's submit ${await most429s(ctx.sim)}`,
	);
	if (o.submit429sEach) {
		ctx.check(
			o.workers.every((w, i) => submitBackoffs(w.logFile) > backoffsBefore[i]),
			`429 storm: every worker backed off (${backoffs.join(', ')})`,
		);
	}
	ctx.check(
		failed.length === 0,
		`fan-out over ${label}: every execution succeeded${failed.map((f) => `\n      ${f}`).join('')}`,
	);
	ctx.check(
		images.size === o.products * o.images && rows.length === o.products * o.images,
		`fan-out over ${label}: every image stored once (${images.size}, ${rows.length} rows)`,
	);
	ctx.check(
		once === o.products && submits.size === o.products,
		`fan-out over ${label}: every product submitted exactly once`,
	);
	return { wallMs, perWorker };
}

/**
 * The most 429s the service gave one product's submits (a retry sends the same prompt): how near a
 * product came to the tries a submit is given.
 * @param {import('./context').Context['sim']} sim
 */
async function most429s(sim) {
	/** @type {Map<string, number>} */
	const counts = new Map();
	for (const r of (await sim.stats()).requests)
		if (r.route === 'submit' && r.status === 429)
			counts.set(r.prompt, (counts.get(r.prompt) ?? 0) + 1);
	return Math.max(0, ...counts.values());
}

/** Retry warnings the node logged for submits. @param {string} logFile */
function submitBackoffs(logFile) {
	return (fs.readFileSync(logFile, 'utf8').match(/Product Image: submit got .*; retry/g) ?? [])
		.length;
}

module.exports = { createFanOutTable, runFanOut };
