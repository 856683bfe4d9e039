// @ts-check
'use strict';

// Submit now, collect later, across a dead worker: the submit run is killed (SIGKILL) in the
// middle of the catalogue, a new worker starts, the next submit run skips every product that has
// a row, and the collector sweeps until every task is collected. From the simulator's records
// and the Data Table: every product submitted exactly once, every image downloaded.

const { callWebhook } = require('../lib/rest');
const { executionsByWorker } = require('../lib/cluster');
const { finishedExecutions } = require('../lib/executions');
const { until } = require('../lib/until');
const { submitsPerProduct } = require('../lib/submits');
const { TASKS_COLUMNS, TASKS_TABLE } = require('../lib/workflows');

/**
 * @param {import('./context').Context} ctx
 * @param {{submit: {workflow: any, webhookPath: string}, collect: {workflow: any, webhookPath: string}}} copies
 * @param {{products: number, killAfter: number}} o
 */
async function runRestart(ctx, copies, o) {
	await ctx.sim.reset();
	// Every task stays unfinished until the suite releases it (after the first sweep): the first
	// sweep finds unfinished tasks and leaves them for the next, however busy the machine is.
	await ctx.sim.configure({ taskOutcome: 'never' });
	const table = await ctx.stack.rest.createDataTable(TASKS_TABLE, [...TASKS_COLUMNS]);

	const first = await callWebhook(ctx.stack.baseUrl, copies.submit.webhookPath);
	ctx.check(
		first.status === 200,
		`the submit run was accepted by its webhook (HTTP ${first.status})`,
	);
	// The run's worker is found first, so that only one read of the table lies between the kill
	// point and the kill, however busy the machine.
	/** @type {any} */
	let running;
	await until(async () => {
		running = (await ctx.stack.rest.executions(copies.submit.workflow.id)).find(
			(e) => e.status === 'running',
		);
		return Boolean(running && executionsByWorker(ctx.stack.workers).has(String(running.id)));
	}, 'the submit run running on a worker');
	const workerName = executionsByWorker(ctx.stack.workers).get(String(running.id));
	const victim = ctx.stack.workers.find((w) => w.name === workerName);
	if (!victim?.pid) throw new Error(`no worker logged execution ${running.id}`);
	// Each task id is recorded right after its submit, then the run paces for a second: the kill
	// lands between two products, as a crash most often does.
	/** @type {Record<string, any>[]} */
	let rows = [];
	await until(
		async () => (rows = await table.rows()).length >= o.killAfter,
		`${o.killAfter} recorded tasks`,
		{ everyMs: 25 },
	);
	// The whole process group, task runner included, as when a container or machine dies.
	process.kill(-victim.pid, 'SIGKILL');
	const killedAt = Date.now();
	const recordedAtKill = (await table.rows()).length;
	const submittedAtKill = (await ctx.sim.tasks()).length;
	ctx.report(
		`submit run ${running.id} on ${victim.name} killed (SIGKILL) after ${recordedAtKill} of ${o.products} products were recorded (${submittedAtKill} submitted)`,
	);

	const replacement = await ctx.stack.addWorker(`worker-${ctx.stack.workers.length + 1}`);
	ctx.report(
		`${replacement.name} started ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill`,
	);

	// The next submit run: every product with a row is skipped.
	const before = (await ctx.stack.rest.executions(copies.submit.workflow.id)).length;
	const second = await callWebhook(ctx.stack.baseUrl, copies.submit.webhookPath);
	ctx.check(second.status === 200, `the second submit run was accepted (HTTP ${second.status})`);
	await finishedExecutions(ctx.stack.rest, copies.submit.workflow.id, before + 1);

	// Sweeps until nothing is left to collect, as the schedule would; the tasks finish after the
	// first sweep.
	let sweeps = 0;
	for (;;) {
		rows = await table.rows();
		const open = rows.filter((r) => r.status === 'submitted');
		if (open.length === 0 || sweeps >= 10) break;
		if (sweeps === 1) await ctx.sim.releaseTasks();
		sweeps += 1;
		const reply = await callWebhook(ctx.stack.baseUrl, copies.collect.webhookPath);
		ctx.check(
			reply.status === 200,
			`collect sweep ${sweeps} ran (HTTP ${reply.status}, ${open.length} open task(s))`,
		);
	}

	const killed = (await ctx.stack.rest.executions(copies.submit.workflow.id)).find(
		(e) => String(e.id) === String(running.id),
	);
	const submits = await submitsPerProduct(ctx.sim);
	const done = rows.filter((r) => r.status === 'done');
	const downloaded = done.filter(
		(r) =>
			Number(r.images_downloaded) >= 1 && Number(r.images_downloaded) === Number(r.image_count),
	);
	const products = new Set(rows.map((r) => r.product_id));
	ctx.report(
		`after the restart: ${sweeps} collect sweep(s); ${done.length} of ${o.products} products done, ${downloaded.length} with every image downloaded; ` +
			`${[...submits.values()].filter((n) => n === 1).length} of ${o.products} submitted exactly once; the killed run's execution is "${killed?.status}" ${((Date.now() - killedAt) / 1000).toFixed(0)} s after the kill`,
	);
	ctx.check(recordedAtKill < o.products, 'the worker died in the middle of the catalogue');
	ctx.check(
		recordedAtKill === submittedAtKill,
		`at the kill every submitted task was recorded (${recordedAtKill} rows, ${submittedAtKill} tasks)`,
	);
	ctx.check(
		rows.length === o.products && products.size === o.products,
		`one row per product (${rows.length} rows, ${products.size} products)`,
	);
	ctx.check(
		submits.size === o.products && [...submits.values()].every((n) => n === 1),
		'every product submitted exactly once across the kill and the rerun',
	);
	ctx.check(
		downloaded.length === o.products,
		`every product's images collected (${downloaded.length} of ${o.products})`,
	);
	ctx.check(
		sweeps >= 2,
		`a sweep left unfinished tasks for the next one without failing (${sweeps} sweeps)`,
	);
}

module.exports = { runRestart };
