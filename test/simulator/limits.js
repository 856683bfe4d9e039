// @ts-check
'use strict';

const { errorReply } = require('./reply');

/**
 * @typedef {import('./reply').Context} Context
 * @typedef {import('./reply').Reply} Reply
 * @typedef {import('./state').SimState} SimState
 */

const WINDOW_MS = 60_000;

/** Whole seconds until `at`, at least 1: a Retry-After of 0 would invite the same refusal at once. */
const secondsUntil = (/** @type {number} */ at, /** @type {number} */ now) =>
	String(Math.max(1, Math.ceil((at - now) / 1000)));

/**
 * The service's own limits on submits, counted over the tasks it holds (so `reset` clears them
 * too): the submits accepted in the last 60 s, and the tasks not yet finished. Beyond either, the
 * submit is refused with 429 and a Retry-After that says when the next one would be taken.
 * @param {Context} ctx
 * @param {number} now
 * @returns {Reply | undefined}
 */
function rateLimitReply(ctx, now) {
	const { submitsPerMinute, tasksInFlight } = ctx.state.config;
	if (!submitsPerMinute && !tasksInFlight) return undefined;
	let oldestInWindow = Infinity;
	let inWindow = 0;
	let firstFinish = Infinity;
	let unfinished = 0;
	for (const task of ctx.state.tasks.values()) {
		if (task.createdAt > now - WINDOW_MS) {
			inWindow += 1;
			oldestInWindow = Math.min(oldestInWindow, task.createdAt);
		}
		const status = task.statusAt(now);
		if (status !== 'succeeded' && status !== 'failed') {
			unfinished += 1;
			firstFinish = Math.min(firstFinish, task.completedAt ?? now + WINDOW_MS);
		}
	}
	if (submitsPerMinute && inWindow >= submitsPerMinute)
		return errorReply(
			ctx,
			429,
			`Rate limit exceeded: ${submitsPerMinute} generation requests per minute`,
			{ 'retry-after': secondsUntil(oldestInWindow + WINDOW_MS, now) },
		);
	if (tasksInFlight && unfinished >= tasksInFlight)
		return errorReply(ctx, 429, `Too many tasks in progress: at most ${tasksInFlight} at once`, {
			'retry-after': secondsUntil(firstFinish, now),
		});
	return undefined;
}

// A reverse proxy's own page, as nginx sends it while the service behind it is down.
const OUTAGE_PAGE =
	'<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n' +
	'<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n' +
	'</body>\r\n</html>\r\n';

/**
 * During an outage the proxy in front of the service answers for it, before the service sees the
 * request: nothing is accepted, counted or billed.
 * @param {SimState} state
 * @param {'main' | 'cdn'} origin
 * @param {string} route
 * @returns {Reply | undefined}
 */
function outageReply(state, origin, route) {
	const { outage } = state.config;
	if (origin !== 'main' || outage === 'none' || (outage === 'task' && route !== 'task'))
		return undefined;
	return {
		status: 503,
		headers: { 'content-type': 'text/html' },
		body: Buffer.from(OUTAGE_PAGE, 'utf8'),
	};
}

module.exports = { rateLimitReply, outageReply };
