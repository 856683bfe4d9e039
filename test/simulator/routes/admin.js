// @ts-check
'use strict';

const { readBody, sendJson } = require('../http-io');
const { validateConfigPatch } = require('../config');
const { resetState } = require('../state');
const { taskView } = require('./task');

/** @typedef {import('../state').SimState} SimState */

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Control routes for a test driver in another process (such as a real n8n run).
 * They bypass auth, faults, latency and stats, and answer loopback callers only.
 * @param {SimState} state
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {string} pathname
 */
async function admin(state, req, res, pathname) {
	if (!LOOPBACK.has(req.socket.remoteAddress || '')) {
		sendJson(res, 403, { error: 'simulator admin routes answer loopback clients only' });
		return;
	}
	let raw;
	try {
		raw = (await readBody(req, 1024 * 1024)).body.toString('utf8');
	} catch {
		return;
	}
	/** @returns {unknown} */
	const json = () => (raw.trim() === '' ? {} : JSON.parse(raw));
	const key = `${req.method} ${pathname}`;
	try {
		switch (key) {
			case 'POST /__sim/configure': {
				Object.assign(state.config, validateConfigPatch(json()));
				sendJson(res, 200, { ok: true, config: state.config });
				return;
			}
			case 'POST /__sim/faults': {
				const input = json();
				const list = Array.isArray(input) ? input : [input];
				// All or nothing, so a bad entry does not leave half a scenario queued.
				const before = state.faults.queue.length;
				try {
					for (const f of list) state.faults.add(f);
				} catch (err) {
					state.faults.queue.length = before;
					throw err;
				}
				sendJson(res, 200, { ok: true, queued: list.length });
				return;
			}
			case 'POST /__sim/faults/clear':
				state.faults.clear();
				sendJson(res, 200, { ok: true });
				return;
			case 'POST /__sim/reset':
				resetState(state);
				sendJson(res, 200, { ok: true });
				return;
			case 'POST /__sim/tasks/release': {
				const now = Date.now();
				for (const task of state.tasks.values()) task.release(now);
				sendJson(res, 200, { ok: true });
				return;
			}
			case 'GET /__sim/stats':
				sendJson(res, 200, state.stats);
				return;
			case 'GET /__sim/config':
				sendJson(res, 200, state.config);
				return;
			case 'GET /__sim/faults':
				sendJson(res, 200, state.faults.pending());
				return;
			case 'GET /__sim/tasks': {
				const now = Date.now();
				sendJson(
					res,
					200,
					[...state.tasks.values()].map((t) => ({
						...taskView(state, t, now),
						body: t.body,
						queries: t.queries,
					})),
				);
				return;
			}
			default:
				sendJson(res, 404, { error: `no simulator admin route ${key}` });
		}
	} catch (err) {
		sendJson(res, 400, { error: /** @type {Error} */ (err).message });
	}
}

module.exports = { admin };
