// @ts-check
'use strict';

// Many products, each photo uploaded as multipart inside a worker, then generated and
// waited for with Max Concurrency 5.

const { callWebhook } = require('../lib/rest');
const { finishedExecutions, workersOf } = require('../lib/executions');

/**
 * @param {import('./context').Context} ctx
 * @param {{workflow: any, webhookPath: string}} copy
 * @param {number} items
 */
async function runUploadMany(ctx, copy, items) {
	await ctx.sim.reset();
	const reply = await callWebhook(ctx.stack.baseUrl, copy.webhookPath);
	const [execution] = await finishedExecutions(ctx.stack.rest, copy.workflow.id, 1);
	const [worker] = workersOf(ctx.stack.workers, [execution]);
	const stats = await ctx.sim.stats();
	const uploads = stats.byRoute.upload ?? 0;
	const out = Array.isArray(reply.body) ? reply.body : [];
	const withImage = out.filter((i) => typeof i.task_id === 'string' && i.image_count >= 1).length;
	ctx.report(
		`upload + generate and wait, ${items} items: execution ${execution.id} ${execution.status} on ${worker}, ${uploads} multipart uploads, ${withImage} images, ${reply.ms} ms`,
	);
	ctx.check(execution.status === 'success', 'the many-item execution succeeded');
	ctx.check(uploads === items, `every photo was uploaded once (${uploads} of ${items})`);
	ctx.check(
		withImage === items && stats.submitsAccepted === items,
		`every item came back with its image (${withImage} of ${items}, ${stats.submitsAccepted} submits)`,
	);
}

module.exports = { runUploadMany };
