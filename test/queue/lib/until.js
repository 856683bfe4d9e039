// @ts-check
'use strict';

/**
 * Asks `ok` until it answers true; fails naming `what` after `timeoutMs`.
 * @param {() => Promise<boolean>} ok @param {string} what
 * @param {{timeoutMs?: number, everyMs?: number}} [o]
 */
async function until(ok, what, o = {}) {
	const deadline = Date.now() + (o.timeoutMs ?? 60000);
	while (!(await ok())) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, o.everyMs ?? 200));
	}
}

module.exports = { until };
