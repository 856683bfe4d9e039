// @ts-check
'use strict';

// The editor's Execute button in queue mode with n8n 3.0's default (2.x's
// OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true, lib/next-major-defaults.js): the manual run goes to a
// worker like a production one, which loads the package and runs the example to its end.

const { finishedExecutions } = require('../lib/executions');
const { executionsByWorker } = require('../lib/cluster');

/**
 * @param {import('./context').Context} ctx
 * @param {{workflow: any, trigger: string}} copy
 */
async function runManual(ctx, copy) {
	const started = await ctx.stack.rest.runManually(copy.workflow.id, copy.trigger);
	const [execution] = await finishedExecutions(ctx.stack.rest, copy.workflow.id, 1);
	const worker = executionsByWorker(ctx.stack.workers).get(String(execution.id));
	ctx.report(
		`run from the editor: execution ${started.executionId ?? '(no id answered)'} ${execution.status} on ${worker ?? 'the main process'}`,
	);
	ctx.check(
		worker !== undefined,
		`the run from the editor went to a worker, not the main process (execution ${execution.id})`,
	);
	ctx.check(
		execution.status === 'success',
		`the run from the editor ran to success (${execution.status})`,
	);
}

module.exports = { runManual };
