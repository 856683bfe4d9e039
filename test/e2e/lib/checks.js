// @ts-check
'use strict';

// Checks more than one expectation makes: the package's nodes ran cleanly, and the last node
// handed items on.

const assert = require('node:assert/strict');

const NODE_TYPE = 'n8n-nodes-product-image.productImage';

/**
 * @param {Record<string, unknown>} runData
 * @param {import('./expectation').Context} ctx
 */
function productImageNodesRan(runData, ctx) {
	const ours = ctx.nodesOfType(NODE_TYPE).filter((/** @type {any} */ node) => !node.disabled);
	assert.ok(ours.length > 0, `the workflow has no ${NODE_TYPE} node`);
	for (const node of ours) {
		assert.ok(runData[node.name], `"${node.name}" did not run`);
		assert.equal(
			ctx.nodeError(node.name),
			undefined,
			`"${node.name}" failed: ${ctx.nodeError(node.name)?.message}`,
		);
	}
}

/**
 * @param {import('./expectation').Context} ctx
 * @returns {{last: string, items: any[]}}
 */
function lastNodeItems(ctx) {
	const last = ctx.lastNode();
	if (!last) throw new Error('nothing ran');
	const items = ctx.items(last);
	assert.ok(items.length > 0, `the last node "${last}" output no items`);
	return { last, items };
}

module.exports = { productImageNodesRan, lastNodeItems, NODE_TYPE };
