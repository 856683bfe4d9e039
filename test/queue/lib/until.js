// @ts-check
'use strict';

const { LOADED_MACHINE_MS } = require('../../e2e/lib/waits');

/**
 * Asks `ok` until it answers true; fails naming `what` after `timeoutMs` (by default the limit
 * sized for a loaded machine, lib/waits.js).
 * @param {() => Promise<boolean>} ok @param {string} what
 * @param {{timeoutMs?: number, everyMs?: number}} [o]
 */
async function until(ok, what, o = {}) {
	const deadline = Date.now() + (o.timeoutMs ?? LOADED_MACHINE_MS);
	while (!(await ok())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, o.everyMs ?? 200));
	}
}

module.exports = { until };
