// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { readBinary, pngSize, itemBinaries } = require('./binary');
const { nodeItems, nodeError, lastNode } = require('./run-data');
const { redact } = require('./redact');

/**
 * An expectations module exports `(runData, ctx) => void | Promise<void>` that throws on
 * failure. Optional properties on that function tune the run:
 *   `simulator`: config sent to the simulator before the run (after a reset)
 *   `faults`: simulator faults queued before the run
 *   `expectFailure`: true when the workflow is meant to end in an error
 *   `binaryModes`: the binary data modes this check can judge (default: `default` and
 *     `filesystem`); `combined` is filesystem storage under the workflow setting Binary Mode
 *     "combined" (n8n 2.x). lib/matrix.js says which modes a workflow runs in; a mode the
 *     check cannot judge fails the run.
 *   `combinedWorkflow`: adapts the test copy for combined mode as an operator would (a node of
 *     n8n's that takes a field name gets n8n's path, `_files.data`)
 *   `timeoutMs`: for `n8n execute`
 *   `llm`: the workflow's AI model nodes talk to the fake OpenAI endpoint; `true`, or how the
 *     fake model answers (`lib/fake-openai.js`); its requests are in `ctx.llm.requests`
 *   `waitsForPerson`: the workflow stops at a form a person answers (`review-test.js` answers it)
 * @typedef {((runData: Record<string, any[]>, ctx: Context) => void | Promise<void>) & {
 *   simulator?: object, faults?: object | object[], expectFailure?: boolean,
 *   binaryModes?: string[], timeoutMs?: number, combinedWorkflow?: (workflow: any) => void,
 *   llm?: true | import('./fake-openai').FakeOpenAiScript, waitsForPerson?: boolean
 * }} Expectation
 *
 * @typedef {ReturnType<typeof makeContext>} Context
 */

/** @param {string} file @returns {Expectation} */
function loadExpectation(file) {
	const mod = require(file);
	const fn = typeof mod === 'function' ? mod : (mod.default ?? mod.check);
	if (typeof fn !== 'function')
		throw new Error(`${file} must export a function (runData, ctx) => void`);
	for (const key of [
		'simulator',
		'faults',
		'expectFailure',
		'binaryModes',
		'timeoutMs',
		'llm',
		'combinedWorkflow',
		'waitsForPerson',
	]) {
		if (fn[key] === undefined && mod[key] !== undefined) fn[key] = mod[key];
	}
	return fn;
}

/**
 * @param {object} o
 * @param {string} o.name
 * @param {string} o.version
 * @param {string} o.binaryMode
 * @param {string} o.userFolder
 * @param {string} o.n8nFolder
 * @param {NodeJS.ProcessEnv} o.env
 * @param {any} o.workflow the imported test copy of the workflow
 * @param {any} o.execution result of executeWorkflow
 * @param {any} o.stats simulator stats after the run
 * @param {any} o.tasks simulator tasks after the run
 * @param {{baseUrl: string, cdnUrl?: string} | undefined} o.simulator undefined against the real service
 * @param {{baseUrl: string, requests: import('./fake-openai').RecordedRequest[]}} [o.llm] the fake OpenAI endpoint and what it was asked
 */
function makeContext(o) {
	const { execution } = o;
	return {
		name: o.name,
		version: o.version,
		binaryMode: o.binaryMode,
		userFolder: o.userFolder,
		n8nFolder: o.n8nFolder,
		simulator: o.simulator && { baseUrl: o.simulator.baseUrl, cdnUrl: o.simulator.cdnUrl },
		llm: o.llm,
		workflow: o.workflow,
		stats: o.stats,
		tasks: o.tasks,
		run: {
			ok: execution.ok,
			exitCode: execution.exitCode,
			error: execution.error,
			lastNodeExecuted: execution.lastNodeExecuted,
			status: execution.status,
			stdout: redact(execution.stdout),
			stderr: redact(execution.stderr),
		},
		assert,
		/** @param {string} node @param {{run?: number, output?: number}} [at] */
		items: (node, at) => nodeItems(execution.runData, node, at),
		/** @param {string} node */
		nodeError: (node) => nodeError(execution.runData, node),
		lastNode: () => lastNode(execution.runData, execution.lastNodeExecuted),
		/** @param {string} type full type, e.g. `n8n-nodes-product-image.productImage` @returns {any[]} */
		nodesOfType: (type) =>
			(o.workflow?.nodes ?? []).filter((/** @type {any} */ n) => n.type === type),
		/** @param {any} entry an item's `binary[field]` */
		readBinary: (entry) => readBinary(entry, { n8nFolder: o.n8nFolder, env: o.env }),
		/** @param {any} item its files by field, on the item or (combined mode) in its JSON `_files` */
		binaries: (item) => itemBinaries(item),
		pngSize,
	};
}

module.exports = { loadExpectation, makeContext };
