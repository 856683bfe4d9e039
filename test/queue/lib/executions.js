// @ts-check
'use strict';

const path = require('node:path');
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

/**
 * One line per execution that did not succeed: its status, the last node it ran, n8n's error
 * message and the worker that ran it, so a failed run says why without its work folder.
 * @param {{rest: {execution: (id: string) => Promise<{status: string, data?: string}>}, install: {dir: string}, workers: {name: string, logFile: string}[]}} stack
 * @param {{id: string, status: string}[]} executions
 * @returns {Promise<string[]>}
 */
async function unsuccessful(stack, executions) {
	const failed = executions.filter((e) => e.status !== 'success');
	if (!failed.length) return [];
	// The run data as n8n stores it, read with n8n's own reader.
	const { parse } = require(path.join(stack.install.dir, 'node_modules', 'flatted'));
	const byWorker = executionsByWorker(stack.workers);
	return Promise.all(
		failed.map(async ({ id }) => {
			const execution = await stack.rest.execution(id);
			const result = execution.data ? parse(execution.data).resultData : undefined;
			const error = result?.error;
			const node = error?.node?.name ?? result?.lastNodeExecuted ?? '(none)';
			const message = [error?.message, error?.description].filter(Boolean).join(': ');
			return `execution ${id} ${execution.status} in "${node}" on ${byWorker.get(String(id)) ?? 'no worker'}: ${message || '(n8n recorded no error)'}`;
		}),
	);
}

module.exports = { finishedExecutions, workersOf, unsuccessful };
