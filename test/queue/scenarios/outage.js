// @ts-check
'use strict';

// Submit now, collect later, through a service that is briefly down. The submit run meets one
// gateway page on a submit the service took (its fate unknown) and ends there; the next submit run
// takes the rest. The collector sweeps while every task query answers a proxy's 503 page, then
// through a 429 storm that lasts past Max Wait Time, then once the service is back. From the Data Table and the simulator's records: no sweep in the
// outage marks a row done or failed, afterwards every task is done exactly once (each image
// downloaded once), the one task the service failed is the one row marked failed, and the submit
// of unknown fate is recorded as unknown and never submitted again.

const { callWebhook } = require('../lib/rest');
const { finishedExecutions } = require('../lib/executions');
const { submitsPerProduct } = require('../lib/submits');
const { until } = require('../lib/until');
const { TASKS_COLUMNS, TASKS_TABLE } = require('../lib/workflows');

/** The third task submitted fails at the service; the second submit's answer is a gateway page. */
const OUTCOMES = ['succeed', 'succeed', 'fail', 'succeed', 'succeed'];

/**
 * @param {import('./context').Context} ctx
 * @param {{submit: {workflow: any, webhookPath: string}, collect: {workflow: any, webhookPath: string}}} copies
 * @param {() => Promise<Record<string, any>[]>} rows
 */
async function submitOnce(ctx, copies, rows) {
	const before = (await ctx.stack.rest.executions(copies.submit.workflow.id)).length;
	const reply = await callWebhook(ctx.stack.baseUrl, copies.submit.webhookPath, {
		products: OUTCOMES.length,
	});
	ctx.check(reply.status === 200, `the submit run was accepted (HTTP ${reply.status})`);
	const done = await finishedExecutions(ctx.stack.rest, copies.submit.workflow.id, before + 1);
	const failed = done.filter((e) => e.status !== 'success');
	ctx.check(failed.length === 0, `the submit runs succeeded (${done.map((e) => e.status)})`);
	return await rows();
}

/**
 * One collect sweep, as the schedule starts it; `fault` holds for the whole sweep.
 * @param {import('./context').Context} ctx
 * @param {{webhookPath: string}} collect
 * @param {object} [fault]
 */
async function sweep(ctx, collect, fault) {
	if (fault) await ctx.sim.faults(fault);
	const queriesBefore = (await ctx.sim.stats()).requests.length;
	const reply = await callWebhook(ctx.stack.baseUrl, collect.webhookPath);
	await ctx.sim.clearFaults();
	const queries = (await ctx.sim.stats()).requests
		.slice(queriesBefore)
		.filter((/** @type {any} */ r) => r.route === 'task');
	ctx.check(reply.status === 200, `the sweep ran (HTTP ${reply.status}, ${reply.ms} ms)`);
	return { ms: reply.ms, statuses: queries.map((/** @type {any} */ r) => r.status) };
}

/** @param {Record<string, any>[]} rows */
const byStatus = (rows) =>
	rows.reduce(
		(/** @type {Record<string, number>} */ counts, r) => ({
			...counts,
			[r.status]: (counts[r.status] ?? 0) + 1,
		}),
		{},
	);

/**
 * @param {import('./context').Context} ctx
 * @param {{submit: {workflow: any, webhookPath: string}, collect: {workflow: any, webhookPath: string}}} copies
 */
async function runOutage(ctx, copies) {
	await ctx.sim.reset();
	await ctx.sim.configure({ taskDurationMs: 500, taskOutcomes: OUTCOMES });
	await ctx.sim.faults([
		{ route: 'submit', delayMs: 0 },
		{ route: 'submit', status: 502, body: 'html', acceptSubmit: true },
	]);
	const table = await ctx.stack.rest.createDataTable(TASKS_TABLE, [...TASKS_COLUMNS]);
	const started = Date.now();
	try {
		await checkOutage(ctx, copies, table.rows);
	} finally {
		await table.drop();
	}
	ctx.report(`the outage scenario took ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * @param {import('./context').Context} ctx
 * @param {{submit: {workflow: any, webhookPath: string}, collect: {workflow: any, webhookPath: string}}} copies
 * @param {() => Promise<Record<string, any>[]>} rows
 */
async function checkOutage(ctx, copies, rows) {
	// The run stops at the submit of unknown fate (the service may be down); the next run, as the
	// schedule starts it, goes on with the products after it.
	const stopped = await submitOnce(ctx, copies, rows);
	ctx.check(
		stopped.length === 2 && stopped[stopped.length - 1]?.status === 'unknown',
		`the submit run ended at the submit of unknown fate (${JSON.stringify(byStatus(stopped))})`,
	);
	const submitted = await submitOnce(ctx, copies, rows);
	const unknown = submitted.filter((r) => r.status === 'unknown');
	ctx.check(
		submitted.length === OUTCOMES.length &&
			unknown.length === 1 &&
			/^(req_|n8n-)/.test(String(unknown[0].request_id)) &&
			!unknown[0].task_id,
		`every product has a row; the submit of unknown fate is recorded as unknown with its request ID (${JSON.stringify(byStatus(submitted))}, request ID ${unknown[0]?.request_id})`,
	);
	// Every task has ended at the service before the outage: whatever a sweep says comes from it.
	await until(
		async () =>
			(await ctx.sim.tasks()).every((/** @type {{status: string}} */ t) =>
				['succeeded', 'failed'].includes(t.status),
			),
		'every task to end at the service',
	);

	const outage = await sweep(ctx, copies.collect, {
		route: 'task',
		status: 503,
		body: 'html',
		times: 'Infinity',
	});
	const afterOutage = await rows();
	const storm = await sweep(ctx, copies.collect, {
		route: 'task',
		status: 429,
		retryAfter: '1',
		times: 'Infinity',
	});
	const afterStorm = await rows();
	const stillOpen = (/** @type {Record<string, any>[]} */ r) =>
		r.filter((row) => row.status === 'submitted').length === OUTCOMES.length - 1;
	ctx.report(
		`collect sweep through a 503 outage (${outage.statuses.length} task queries, all 503: ${outage.statuses.every((s) => s === 503)}, ${outage.ms} ms): rows ${JSON.stringify(byStatus(afterOutage))}; through a 429 storm past Max Wait Time (${storm.statuses.length} queries, ${storm.ms} ms): rows ${JSON.stringify(byStatus(afterStorm))}`,
	);
	ctx.check(
		outage.statuses.length > 0 && outage.statuses.every((s) => s === 503),
		'every task query of the outage sweep met the 503 page',
	);
	ctx.check(stillOpen(afterOutage), 'the outage sweep marked no row done or failed');
	ctx.check(stillOpen(afterStorm), 'the 429-storm sweep marked no row done or failed');

	await sweep(ctx, copies.collect);
	await checkCollected(ctx, copies, rows);
}

/**
 * After the service is back: every task done once, the failed one failed, nothing submitted twice.
 * @param {import('./context').Context} ctx
 * @param {{submit: {workflow: any, webhookPath: string}, collect: {workflow: any, webhookPath: string}}} copies
 * @param {() => Promise<Record<string, any>[]>} rows
 */
async function checkCollected(ctx, copies, rows) {
	const after = await rows();
	const tasks = await ctx.sim.tasks();
	const failedAtService = new Set(
		tasks.filter((/** @type {any} */ t) => t.status === 'failed').map((t) => t.task_id),
	);
	const failedRows = after.filter((r) => r.status === 'failed');
	const done = after.filter((r) => r.status === 'done');
	const downloads = (await ctx.sim.stats()).requests.filter(
		(/** @type {any} */ r) => r.route === 'asset',
	);
	const downloadedOnce = done.every(
		(r) =>
			Number(r.images_downloaded) === 1 &&
			downloads.filter((/** @type {any} */ d) => d.path.includes(r.task_id)).length === 1,
	);
	// One more submit run: every product has a row, the one of unknown fate included.
	await submitOnce(ctx, copies, rows);
	const submits = await submitsPerProduct(ctx.sim);
	ctx.report(
		`after the outage: rows ${JSON.stringify(byStatus(after))}; ${failedRows.length} failed of ${failedAtService.size} the service failed; ${downloads.length} image downloads for ${done.length} done tasks; ${[...submits.values()].filter((n) => n === 1).length} of ${OUTCOMES.length} products submitted exactly once after a third submit run`,
	);
	ctx.check(
		done.length === OUTCOMES.length - 2 && downloadedOnce,
		`every task the service finished is done, each image downloaded exactly once (${done.length} done, ${downloads.length} downloads)`,
	);
	ctx.check(
		failedRows.length === 1 && failedRows.every((r) => failedAtService.has(r.task_id)),
		'the only row marked failed is the task the service failed',
	);
	ctx.check(
		after.filter((r) => r.status === 'unknown').length === 1,
		'the submit of unknown fate stays unknown for review',
	);
	ctx.check(
		submits.size === OUTCOMES.length && [...submits.values()].every((n) => n === 1),
		'every product submitted exactly once, the one of unknown fate included, across three submit runs',
	);
}

module.exports = { runOutage };
