// @ts-check
'use strict';

const { executionsByWorker } = require('./cluster');
const { LOADED_RUN_MS } = require('../../e2e/lib/waits');

/**
 * The workflow's executions once `count` of them have stopped running.
 * @param {{executions: (id: string) => Promise<{id: string, status: string}[]>}} rest
 * @param {string} workflowId
 * @param {number} count
 * @param {number} [timeoutMs]
 */
async function finishedExecutions(rest, workflowId, count, timeoutMs = LOADED_RUN_MS) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const all = await rest.executions(workflowId);
		const done = all.filter((e) => !['new', 'running', 'waiting'].includes(e.status));
		if (done.length >= count) return done;
		if (Date.now() > deadline)
			throw new Error(
				`timed out waiting for ${count} executions of workflow ${workflowId} to finish: ${done.length} within ${timeoutMs / 1000} s`,
			);
		await new Promise((r) => setTimeout(r, 500));
	}
}

/**
 * The worker whose log records the start of each execution; an execution no worker logged
 * ran somewhere else (the main process), which queue mode must not do.
 * @param {{name: string, logFile: string}[]} workers
 * @param {{id: string}[]} executions
 */
function workersOf(workers, executions) {
	const byWorker = executionsByWorker(workers);
	return executions.map((e) => {
		const worker = byWorker.get(String(e.id));
		if (!worker)
			throw new Error(`execution ${e.id} is in no worker's log: it did not run on a worker`);
		return worker;
	});
}

module.exports = { finishedExecutions, workersOf };
