// @ts-check
'use strict';

const { STATUS_CODES } = require('node:http');
const { errorBody, xmlError } = require('./errors');

/**
 * @typedef {import('./reply').Context} Context
 * @typedef {import('./reply').Reply} Reply
 *
 * @typedef {'upload' | 'submit' | 'task' | 'asset' | 'media' | 'analysis' | 'plan' | 'cdn' | 'any'} FaultRoute
 * @typedef {'error' | 'html' | 'signIn' | 'empty' | 'malformed' | 'echoHeaders'} FaultBody
 * @typedef {'beforeResponse' | 'midBody'} FaultReset
 *
 * @typedef {object} Fault
 * @property {FaultRoute} route
 * @property {number} [status]
 * @property {string} [retryAfter]
 * @property {FaultBody} [body]
 * @property {string} [message] the service's words in an error body, in place of `Simulated <status>`
 * @property {number} [delayMs]
 * @property {FaultReset} [reset]
 * @property {boolean} [acceptSubmit]
 * @property {string} [contentType] replaces the reply's content type; '' sends none
 * @property {number | string} [times] default 1; Infinity (or the string 'Infinity' over JSON)
 * @property {number} [forMs] answers every matching request for this long after it is added (a rate
 *   limit that holds for a while, whoever asks), then is gone; `times` does not apply
 * @property {boolean} [each] `times` counts for each request body on its own (a retry sends its
 *   body again, another item sends another), and the fault stays: every item meets it `times` times,
 *   however the requests of many items interleave
 *
 * @typedef {Fault & {times: number, remaining: number, until?: number, seen?: Map<string, number>}} QueuedFault
 */

const ROUTES = ['upload', 'submit', 'task', 'asset', 'media', 'analysis', 'plan', 'cdn', 'any'];
const BODIES = ['error', 'html', 'signIn', 'empty', 'malformed', 'echoHeaders'];
const RESETS = ['beforeResponse', 'midBody'];
const KEYS = [
	'route',
	'status',
	'retryAfter',
	'body',
	'message',
	'delayMs',
	'reset',
	'acceptSubmit',
	'contentType',
	'times',
	'forMs',
	'each',
];

/**
 * The service's words, for an error body only.
 * @param {Record<string, unknown>} f
 */
function checkMessage(f) {
	if (f.message === undefined) return;
	if (typeof f.message !== 'string') throw new TypeError('fault.message must be a string');
	if (f.body !== undefined && f.body !== 'error')
		throw new TypeError("fault.message only applies to the 'error' body");
}

/**
 * @param {unknown} input
 * @returns {QueuedFault}
 */
function normalizeFault(input) {
	if (input === null || typeof input !== 'object' || Array.isArray(input))
		throw new TypeError('a fault must be an object');
	const f = /** @type {Record<string, unknown>} */ (input);
	for (const key of Object.keys(f)) {
		if (!KEYS.includes(key))
			throw new TypeError(`unknown fault field '${key}' (known: ${KEYS.join(', ')})`);
	}
	if (!ROUTES.includes(/** @type {string} */ (f.route))) {
		throw new TypeError(
			`fault.route must be one of ${ROUTES.join(', ')}, got ${JSON.stringify(f.route)}`,
		);
	}
	if (
		f.status !== undefined &&
		!(
			Number.isInteger(f.status) &&
			/** @type {number} */ (f.status) >= 100 &&
			/** @type {number} */ (f.status) <= 599
		)
	) {
		throw new TypeError(
			`fault.status must be an HTTP status 100..599, got ${JSON.stringify(f.status)}`,
		);
	}
	if (f.retryAfter !== undefined && typeof f.retryAfter !== 'string')
		throw new TypeError('fault.retryAfter must be a string');
	if (f.contentType !== undefined && typeof f.contentType !== 'string')
		throw new TypeError('fault.contentType must be a string');
	checkMessage(f);
	if (f.body !== undefined && !BODIES.includes(/** @type {string} */ (f.body))) {
		throw new TypeError(
			`fault.body must be one of ${BODIES.join(', ')}, got ${JSON.stringify(f.body)}`,
		);
	}
	if (f.reset !== undefined && !RESETS.includes(/** @type {string} */ (f.reset))) {
		throw new TypeError(
			`fault.reset must be one of ${RESETS.join(', ')}, got ${JSON.stringify(f.reset)}`,
		);
	}
	if (f.delayMs !== undefined && !(typeof f.delayMs === 'number' && f.delayMs >= 0))
		throw new TypeError('fault.delayMs must be a number >= 0');
	if (f.acceptSubmit !== undefined && typeof f.acceptSubmit !== 'boolean')
		throw new TypeError('fault.acceptSubmit must be a boolean');
	if (f.acceptSubmit && f.route !== 'submit')
		throw new TypeError("fault.acceptSubmit only applies to route 'submit'");
	const times = f.times === undefined ? 1 : f.times === 'Infinity' ? Infinity : f.times;
	if (
		typeof times !== 'number' ||
		!(times >= 1) ||
		(Number.isFinite(times) && !Number.isInteger(times))
	) {
		throw new TypeError(
			`fault.times must be a positive integer or Infinity, got ${JSON.stringify(f.times)}`,
		);
	}
	if (f.forMs !== undefined && !(typeof f.forMs === 'number' && f.forMs > 0))
		throw new TypeError('fault.forMs must be a number > 0');
	if (f.each !== undefined && typeof f.each !== 'boolean')
		throw new TypeError('fault.each must be a boolean');
	if (f.each && (f.forMs !== undefined || !Number.isFinite(times)))
		throw new TypeError('fault.each counts a finite `times` per body: not with forMs or Infinity');
	if (f.each)
		return /** @type {QueuedFault} */ ({ ...f, times, remaining: Infinity, seen: new Map() });
	if (f.forMs !== undefined)
		return /** @type {QueuedFault} */ ({
			...f,
			times: Infinity,
			remaining: Infinity,
			until: Date.now() + f.forMs,
		});
	return /** @type {QueuedFault} */ ({ ...f, times, remaining: times });
}

/**
 * Whether the fault stands in for the genuine reply; a fault that only delays does not.
 * @param {Fault} fault
 */
const replacesReply = (fault) =>
	fault.status !== undefined ||
	fault.body !== undefined ||
	fault.message !== undefined ||
	fault.reset !== undefined;

class FaultQueue {
	constructor() {
		/** @type {QueuedFault[]} */
		this.queue = [];
	}

	/** @param {unknown} fault */
	add(fault) {
		this.queue.push(normalizeFault(fault));
	}

	/**
	 * Consumes one use of the first fault that applies. The cdn origin only takes faults
	 * aimed at it, so a catch-all fault meant for the service does not also break downloads.
	 * @param {'main' | 'cdn'} origin
	 * @param {string} route
	 * @param {Buffer} [body] the request's body, which a fault of `each` counts by
	 * @returns {QueuedFault | undefined}
	 */
	take(origin, route, body = Buffer.alloc(0)) {
		const now = Date.now();
		for (let j = this.queue.length - 1; j >= 0; j--)
			if ((this.queue[j].until ?? Infinity) <= now) this.queue.splice(j, 1);
		const key = this.queue.some((f) => f.seen) ? body.toString('utf8') : '';
		const i = this.queue.findIndex(
			(f) =>
				(origin === 'cdn'
					? f.route === 'cdn'
					: f.route === route || (f.route === 'any' && route !== 'cdn')) &&
				(f.seen?.get(key) ?? 0) < f.times,
		);
		if (i < 0) return undefined;
		const fault = this.queue[i];
		fault.seen?.set(key, (fault.seen.get(key) ?? 0) + 1);
		fault.remaining -= 1;
		if (fault.remaining <= 0) this.queue.splice(i, 1);
		return { ...fault, seen: undefined };
	}

	clear() {
		this.queue.length = 0;
	}

	/** @returns {QueuedFault[]} */
	pending() {
		return this.queue.map((f) => ({ ...f }));
	}
}

/** A sign-in portal, as a captive portal or an access proxy answers in place of a file: 200 and a page. */
const SIGN_IN_PAGE =
	'<!DOCTYPE html><html><head><title>Sign in to continue</title></head><body><form method="post"><input name="user"></form></body></html>';

/** @param {Context} ctx */
function headerDump(ctx) {
	const raw = ctx.req.rawHeaders;
	const lines = [];
	for (let i = 0; i < raw.length; i += 2) lines.push(`${raw[i]}: ${raw[i + 1]}`);
	return lines.join('\n');
}

/**
 * The reply a replacing fault sends in place of the genuine one.
 * @param {Context} ctx
 * @param {QueuedFault} fault
 * @returns {Reply}
 */
function faultReply(ctx, fault) {
	const kind = fault.body || 'error';
	const status =
		fault.status !== undefined
			? fault.status
			: kind === 'malformed' || kind === 'signIn'
				? 200
				: kind === 'html'
					? 502
					: 500;
	/** @type {Record<string, string>} */
	const headers = {};
	if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;

	if (kind === 'signIn') {
		return {
			status,
			headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
			body: Buffer.from(SIGN_IN_PAGE, 'utf8'),
		};
	}
	if (kind === 'html') {
		const html = `<html><body><h1>${status} ${STATUS_CODES[status] || 'Error'}</h1></body></html>`;
		return {
			status,
			headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
			body: Buffer.from(html, 'utf8'),
		};
	}
	if (kind === 'empty') return { status, headers, body: Buffer.alloc(0) };
	if (kind === 'malformed') {
		return {
			status,
			headers: { ...headers, 'content-type': 'application/json' },
			body: Buffer.from('{"code":200,"data":{', 'utf8'),
		};
	}
	const message =
		kind === 'echoHeaders'
			? `Simulated ${status}; request headers were:\n${headerDump(ctx)}`
			: (fault.message ?? `Simulated ${status}`);
	if (ctx.origin === 'cdn') {
		return {
			status,
			headers: { ...headers, 'content-type': 'application/xml' },
			body: Buffer.from(xmlError(status === 503 ? 'SlowDown' : 'InternalError', message), 'utf8'),
		};
	}
	const body = errorBody(ctx.state.config.errorShape, status, message, ctx.reqId);
	return {
		status,
		headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
		body: Buffer.from(JSON.stringify(body), 'utf8'),
	};
}

module.exports = { FaultQueue, replacesReply, faultReply };
