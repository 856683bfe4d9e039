// @ts-check
'use strict';

/**
 * Accepted submits per product, from the simulator's task list (each task keeps the body it
 * was submitted with; the node sends the product name as `product_info.name`).
 * @param {{tasks: () => Promise<any[]>}} sim
 * @returns {Promise<Map<string, number>>}
 */
async function submitsPerProduct(sim) {
	/** @type {Map<string, number>} */
	const counts = new Map();
	for (const task of await sim.tasks()) {
		const name = String(task.body?.product_info?.name ?? '(no product name)');
		counts.set(name, (counts.get(name) ?? 0) + 1);
	}
	return counts;
}

module.exports = { submitsPerProduct };
