// @ts-check
'use strict';

/**
 * Small readers over n8n's run data (`resultData.runData`: node name -> list of runs, each
 * with `data.main[output][item]` and, when the node failed, `error`).
 */

/**
 * @param {Record<string, any[]>} runData
 * @param {string} node
 * @param {{run?: number, output?: number}} [at] last run and first output by default
 * @returns {any[]} the items, `{json, binary?, pairedItem?}`
 */
function nodeItems(runData, node, at = {}) {
	const runs = runData[node];
	if (!runs || runs.length === 0)
		throw new Error(
			`node "${node}" did not run (ran: ${Object.keys(runData).join(', ') || 'nothing'})`,
		);
	const taskData = runs[at.run ?? runs.length - 1];
	return taskData?.data?.main?.[at.output ?? 0] ?? [];
}

/**
 * @param {Record<string, any[]>} runData
 * @param {string} node
 * @returns {any} the node's error, if its last run failed
 */
function nodeError(runData, node) {
	const runs = runData[node] ?? [];
	return runs[runs.length - 1]?.error;
}

/**
 * The node that finished last (by start time), i.e. the end of the workflow's path.
 * @param {Record<string, any[]>} runData
 * @param {string} [lastNodeExecuted] n8n's own record, preferred when present
 */
function lastNode(runData, lastNodeExecuted) {
	if (lastNodeExecuted && runData[lastNodeExecuted]) return lastNodeExecuted;
	let best;
	let bestTime = -Infinity;
	for (const [name, runs] of Object.entries(runData)) {
		const t = runs[runs.length - 1]?.startTime ?? 0;
		if (t >= bestTime) {
			best = name;
			bestTime = t;
		}
	}
	return best;
}

/** @param {Record<string, any[]>} runData */
function summary(runData) {
	return Object.entries(runData)
		.map(([name, runs]) => {
			const last = runs[runs.length - 1];
			// Sub-nodes of an AI Agent (model, tools) put their items under ai_* connections, not main.
			const outputs = Object.values(last?.data ?? {}).flat();
			const items = outputs.reduce(
				(/** @type {number} */ n, /** @type {any[] | null} */ out) => n + (out?.length ?? 0),
				0,
			);
			return `${name}: ${last?.error ? `error (${last.error.message})` : `${items} item(s)`}`;
		})
		.join('; ');
}

module.exports = { nodeItems, nodeError, lastNode, summary };
