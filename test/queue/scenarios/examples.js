// @ts-check
'use strict';

// Every example workflow, started by its production webhook, run by a worker.

const { callWebhook } = require('../lib/rest');
const { finishedExecutions, workersOf } = require('../lib/executions');

/**
 * @param {import('./context').Context} ctx
 * @param {{name: string, workflow: any, webhookPath: string}[]} copies
 */
async function runExamples(ctx, copies) {
	const results = await Promise.all(
		copies.map(async (copy) => {
			const reply = await callWebhook(ctx.stack.baseUrl, copy.webhookPath);
			const [execution] = await finishedExecutions(ctx.stack.rest, copy.workflow.id, 1);
			const [worker] = workersOf(ctx.stack.workers, [execution]);
			return { name: copy.name, reply, execution, worker };
		}),
	);
	for (const r of results) {
		const items = Array.isArray(r.reply.body) ? r.reply.body.length : 0;
		ctx.report(
			`example ${r.name}: HTTP ${r.reply.status}, execution ${r.execution.id} ${r.execution.status} on ${r.worker}, ${items} item(s) answered, ${r.reply.ms} ms`,
		);
		ctx.check(
			r.reply.status === 200 && r.execution.status === 'success' && items > 0,
			`example ${r.name} ran to success with output`,
		);
	}
}

module.exports = { runExamples };
