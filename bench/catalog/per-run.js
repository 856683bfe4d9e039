// @ts-check
'use strict';

// What one submit run costs at each catalog size: the same number of runs at every size, each as
// late in a night as it gets (the Data Table holds a row for every product before the cursor, so
// the run's lookups meet a table as large as the catalog), one after another on the same stack.
// Per run: its time (n8n's start and stop), n8n's own size of its execution data, the peak
// memory of the worker processes while it ran, and the pace of its submits (from its first to its
// last, as the service accepted them).

const { info, formatDuration } = require('../../test/e2e/lib/log');
const { callWebhook } = require('../../test/queue/lib/rest');
const { sampleMemoryTrees } = require('../../test/queue/lib/memory');
const {
	tableName,
	executionAfter,
	lastExecutionId,
	FINAL,
	submitsPerMinute,
} = require('./figures');

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @typedef {object} PerRunContext
 * @property {Awaited<ReturnType<typeof import('../../test/queue/lib/stack').startStack>>} stack
 * @property {import('../../test/e2e/lib/simulator').RunningSimulator} sim
 * @property {() => Promise<void>} configureService the service's limits, again after a reset
 * @property {{workflow: any, webhookPath: string}} submit
 * @property {string} tableId
 * @property {string} runsTableId
 * @property {number} productsPerRun
 * @property {number} batch submits a run sends together
 * @property {number} firstId the catalog's first product id (the bench's stand-in for the store)
 *
 * @typedef {{size: number, runs: {ms: number, dataBytes: number, workerMiB: number, submitted: number, perMinute: number}[]}} SizeFigures
 */

/**
 * A table as a night leaves it by the time `recorded` products have rows, and the cursor after
 * the last of them; nothing at the service.
 * @param {PerRunContext} ctx @param {number} recorded
 */
async function lateInTheNight(ctx, recorded) {
	const tasks = tableName(ctx.tableId);
	await ctx.stack.sql(`delete from ${tasks}`);
	await ctx.stack.sql(
		`insert into ${tasks} (product_id, title, task_id, status, request_id, submitted_at, image_count, images_downloaded, image_urls, error, collected_at) ` +
			`select (${ctx.firstId} + i - 1)::text, 'Product ' || i, 'task_earlier' || i, 'done', 'req_earlier' || i, now()::text, 1, 1, '', '', now()::text from generate_series(1, ${recorded}) i`,
	);
	const runs = tableName(ctx.runsTableId);
	await ctx.stack.sql(`delete from ${runs}`);
	await ctx.stack.sql(
		`insert into ${runs} (name, holder, lease_until, after, sending) values ('submit', '', 0, '${recorded ? ctx.firstId + recorded - 1 : ''}', '')`,
	);
	await ctx.sim.reset();
	await ctx.configureService();
}

/**
 * One run, started as a tick would, watched to its end.
 * @param {PerRunContext} ctx @param {number} size
 */
async function oneRun(ctx, size) {
	const before = await lastExecutionId(ctx.stack);
	const tasksBefore = (await ctx.sim.tasks()).length;
	const startedAt = Date.now();
	const memory = sampleMemoryTrees(() => ctx.stack.workers, 500);
	try {
		const reply = await callWebhook(ctx.stack.baseUrl, ctx.submit.webhookPath, { products: size });
		if (reply.status !== 200) throw new Error(`the submit webhook answered HTTP ${reply.status}`);
		for (const until = Date.now() + 15 * 60_000; Date.now() < until; await sleep(500)) {
			const run = await executionAfter(ctx.stack, ctx.submit.workflow.id, before);
			if (!run || !FINAL.includes(run.status)) continue;
			const [[ms, bytes]] = await ctx.stack.sql(
				`select extract(epoch from ("stoppedAt" - "startedAt")) * 1000, coalesce("jsonSizeBytes", 0) from execution_entity where id = ${run.id}`,
			);
			if (run.status !== 'success') throw new Error(`submit run ${run.id} ended ${run.status}`);
			const peak = memory.stop();
			const tasks = await ctx.sim.tasks();
			return {
				ms: Number(ms),
				dataBytes: Number(bytes),
				workerMiB: Math.max(...Object.values(peak).map((p) => p.tree)),
				submitted: tasks.length - tasksBefore,
				perMinute: submitsPerMinute(
					tasks
						.map((t) => Date.parse(t.created_at))
						.filter((t) => t >= startedAt)
						.sort((a, b) => a - b),
					ctx.batch,
				),
			};
		}
		throw new Error(`a submit run at ${size} products did not end within 15 minutes`);
	} finally {
		memory.stop();
	}
}

/**
 * `runs` runs at each size, the smallest first: the baseline the others are held against.
 * @param {PerRunContext} ctx @param {number[]} sizes @param {number} runs
 * @returns {Promise<SizeFigures[]>}
 */
async function measurePerRun(ctx, sizes, runs) {
	/** @type {SizeFigures[]} */
	const figures = [];
	for (const size of sizes) {
		const recorded = Math.max(0, size - runs * ctx.productsPerRun);
		await lateInTheNight(ctx, recorded);
		info(`per-run figures at ${size} products: ${runs} runs after ${recorded} recorded`);
		const measured = [];
		for (let i = 0; i < runs; i++) {
			const run = await oneRun(ctx, size);
			info(
				`  run ${i + 1}: ${formatDuration(run.ms)}, ${run.submitted} submitted (${run.perMinute.toFixed(0)} a minute), ${(run.dataBytes / 1024).toFixed(0)} KiB of execution data, workers ${run.workerMiB.toFixed(0)} MiB`,
			);
			measured.push(run);
		}
		figures.push({ size, runs: measured });
	}
	return figures;
}

/** @param {number[]} list */
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

/**
 * Each size's medians, and their ratio to the first (smallest) size's.
 * @param {SizeFigures[]} figures
 */
function perRunMedians(figures) {
	const medians = figures.map((f) => ({
		size: f.size,
		runs: f.runs.length,
		submitted: median(f.runs.map((r) => r.submitted)),
		ms: median(f.runs.map((r) => r.ms)),
		dataBytes: median(f.runs.map((r) => r.dataBytes)),
		workerMiB: median(f.runs.map((r) => r.workerMiB)),
		// A night measured before the pace was read has none.
		perMinute: median(f.runs.map((r) => r.perMinute ?? 0)),
	}));
	const base = medians[0];
	return medians.map((m) => ({
		...m,
		ratio: {
			ms: m.ms / base.ms,
			dataBytes: m.dataBytes / base.dataBytes,
			workerMiB: m.workerMiB / base.workerMiB,
		},
	}));
}

module.exports = { measurePerRun, perRunMedians };
