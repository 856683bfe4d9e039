// @ts-check
'use strict';

// The stop the editor sends (POST /rest/executions/:id/stop to the main process) must end the
// worker's wait: no task query after it, beyond the one already on its way.

const fs = require('node:fs');
const { callWebhook } = require('../lib/rest');
const { finishedExecutions, workersOf } = require('../lib/executions');
const { until } = require('../lib/until');

/**
 * @param {import('./context').Context} ctx
 * @param {{workflow: any, webhookPath: string}} copy
 */
async function runStop(ctx, copy) {
	await ctx.sim.reset();
	await ctx.sim.configure({ taskDurationMs: 300000 });
	try {
		const reply = await callWebhook(ctx.stack.baseUrl, copy.webhookPath);
		ctx.check(
			reply.status === 200,
			`the long wait was accepted by its webhook (HTTP ${reply.status})`,
		);
		/** @type {{id: string, status: string} | undefined} */
		let running;
		await until(async () => {
			running = (await ctx.stack.rest.executions(copy.workflow.id)).find(
				(e) => e.status === 'running',
			);
			const queries = (await ctx.sim.stats()).byRoute.task ?? 0;
			return Boolean(running) && queries >= 3;
		}, 'the execution to be running and polling');
		if (!running) throw new Error('no running execution');
		const [task] = await ctx.sim.tasks();
		const stoppedAt = Date.now();
		await ctx.stack.rest.stop(running.id);
		const [execution] = await finishedExecutions(ctx.stack.rest, copy.workflow.id, 1);
		await new Promise((r) => setTimeout(r, 2000));
		const quietSince = Date.now() - 1500;
		const queriesAfter = (await ctx.sim.stats()).requests.filter(
			(/** @type {any} */ r) => r.route === 'task' && r.at > stoppedAt,
		);
		const lastQuery = Math.max(stoppedAt, ...queriesAfter.map((/** @type {any} */ r) => r.at));
		const [worker] = workersOf(ctx.stack.workers, [execution]);
		// n8n stores its own cancellation error; the node names the task in the worker's log.
		const log = fs.readFileSync(
			ctx.stack.workers.find((w) => w.name === worker)?.logFile ?? '',
			'utf8',
		);
		const namesTask = log.includes(`canceled while waiting for task ${task.task_id}`);
		ctx.report(
			`stop from the main process: execution ${execution.id} on ${worker} ended ${execution.status}; last task query ${lastQuery - stoppedAt} ms after the stop (${queriesAfter.length} after it); the worker's error names ${task.task_id}: ${namesTask}`,
		);
		// Only n8n's own record of a stop: a crashed or failed execution ended for another reason.
		ctx.check(
			execution.status === 'canceled',
			`the stopped execution ended canceled (${execution.status})`,
		);
		// The wait polls every 0.2 s: a worker still waiting would have queried in this window.
		ctx.check(lastQuery < quietSince, 'the worker stopped polling after the stop');
		ctx.check(namesTask, 'the stopped execution names the task id');
	} finally {
		await ctx.sim.configure({ taskDurationMs: 300 });
	}
}

module.exports = { runStop };
