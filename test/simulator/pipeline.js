// @ts-check
'use strict';

const crypto = require('node:crypto');
const { requestId } = require('./ids');
const { classify } = require('./router');
const { readBody, sleep, send } = require('./http-io');
const { replacesReply, faultReply } = require('./faults');
const { errorReply } = require('./reply');
const { outageReply } = require('./limits');
const { admin } = require('./routes/admin');
const { upload } = require('./routes/upload');
const { submit } = require('./routes/submit');
const { task } = require('./routes/task');
const { asset, media } = require('./routes/assets');
const { analysis } = require('./routes/analysis');
const { plan } = require('./routes/plan');
const { cdn } = require('./routes/cdn');

/**
 * @typedef {import('./state').SimState} SimState
 * @typedef {import('./state').Route} Route
 * @typedef {import('./state').RequestRecord} RequestRecord
 * @typedef {import('./reply').Context} Context
 * @typedef {import('./reply').Reply} Reply
 */

const JSON_BODY_LIMIT = 10 * 1024 * 1024;
// Room for the multipart framing around a file of exactly the allowed size.
const MULTIPART_OVERHEAD = 64 * 1024;
// What a plan is for, recorded as sent: a test tells an empty field sent from one left out.
const PLAN_TARGET_FIELDS = ['platform', 'market', 'language'];

/**
 * @param {SimState} state
 * @param {string | undefined} header
 */
function isAuthorized(state, header) {
	const m = /^Bearer\s+(\S+)\s*$/i.exec(header || '');
	if (!m) return false;
	const given = Buffer.from(m[1]);
	const expected = Buffer.from(state.apiKey);
	return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/**
 * What the service would answer if nothing went wrong.
 * @param {Context} ctx
 * @param {{commit: boolean}} opts
 * @returns {Reply}
 */
function genuine(ctx, opts) {
	const { state, route } = ctx;
	if (route === 'cdn') return cdn(ctx);
	if (route === 'unknown')
		return errorReply(ctx, 404, `No route for ${ctx.req.method} ${ctx.pathname}`);
	const open = route === 'media' || (route === 'asset' && !state.config.assetsRequireAuth);
	if (!open && !isAuthorized(state, ctx.req.headers.authorization)) {
		return errorReply(ctx, 401, 'Invalid or missing API key', { 'www-authenticate': 'Bearer' });
	}
	try {
		switch (route) {
			case 'upload':
				return upload(ctx);
			case 'submit':
				return submit(ctx, opts);
			case 'task':
				return task(ctx);
			case 'asset':
				return asset(ctx);
			case 'media':
				return media(ctx);
			case 'analysis':
				return analysis(ctx);
			case 'plan':
				return plan(ctx);
			default:
				return errorReply(ctx, 404, `No route for ${ctx.req.method} ${ctx.pathname}`);
		}
	} catch (err) {
		return errorReply(ctx, 500, `Simulator error: ${/** @type {Error} */ (err).message}`);
	}
}

/**
 * One request on either origin: record it, read it, let a queued fault shape or replace
 * the reply, wait, then answer.
 * @param {SimState} state
 * @param {'main' | 'cdn'} origin
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function handle(state, origin, req, res) {
	const method = req.method || 'GET';
	// Split by hand: the raw target is what the client sent, encoded slashes included.
	const target = req.url || '/';
	const q = target.indexOf('?');
	const pathname = q < 0 ? target : target.slice(0, q);
	const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));

	if (origin === 'main' && pathname.startsWith('/__sim/')) {
		await admin(state, req, res, pathname);
		return;
	}

	const { route, param } =
		origin === 'cdn'
			? { route: /** @type {Route} */ ('cdn'), param: '' }
			: classify(method, pathname);
	/** @type {RequestRecord} */
	const record = {
		origin,
		method,
		path: pathname,
		route,
		status: 0,
		authorization: req.headers.authorization,
		accept: req.headers.accept,
		at: Date.now(),
	};
	const clientRequestId = req.headers['x-request-id'];
	if (typeof clientRequestId === 'string') record.requestIdHeader = clientRequestId;
	state.stats.requests.push(record);
	state.stats.byRoute[route] = (state.stats.byRoute[route] || 0) + 1;
	if (state.onRequest) state.onRequest(record);

	let read;
	try {
		read = await readBody(
			req,
			route === 'upload' ? state.config.maxUploadBytes + MULTIPART_OVERHEAD : JSON_BODY_LIMIT,
		);
	} catch {
		return; // the client is gone
	}

	if (route === 'submit' || route === 'analysis' || route === 'plan') {
		// What a client sent is checked by tests even when a fault answers in place of the route.
		try {
			const sent = JSON.parse(read.body.toString('utf8'));
			if (sent && typeof sent === 'object' && 'image_urls' in sent)
				record.imageUrls = sent.image_urls;
			if (route === 'submit' && sent && typeof sent.prompt === 'string')
				record.prompt = sent.prompt;
			if (route === 'plan' && sent && 'product_description' in sent)
				record.productDescription = sent.product_description;
			if (route === 'plan' && sent && typeof sent === 'object')
				record.planTarget = Object.fromEntries(
					PLAN_TARGET_FIELDS.filter((field) => field in sent).map((field) => [field, sent[field]]),
				);
		} catch {
			// not JSON: the route answers 400 itself
		}
	}

	const reqId = requestId();
	/** @type {Context} */
	const ctx = {
		state,
		req,
		origin,
		route,
		param,
		pathname,
		query,
		body: read.body,
		bodySize: read.size,
		bodyTruncated: read.truncated,
		reqId,
		record,
	};

	// The proxy in front of a service that is down answers before the service or a fault is reached.
	const down = outageReply(state, origin, route);
	const fault = down ? undefined : state.faults.take(origin, route, read.body);
	/** @type {Reply | undefined} */
	let reply;
	if (down) {
		reply = down;
	} else if (!fault || !replacesReply(fault)) {
		reply = genuine(ctx, { commit: true });
	} else if (fault.reset === 'midBody' && fault.status === undefined && fault.body === undefined) {
		// The genuine reply, cut short; a submit only takes the job when acceptSubmit says so.
		reply = genuine(ctx, { commit: route !== 'submit' || fault.acceptSubmit === true });
	} else {
		if (route === 'submit' && fault.acceptSubmit) genuine(ctx, { commit: true });
		if (fault.reset !== 'beforeResponse') reply = faultReply(ctx, fault);
	}
	if (reply && fault && fault.retryAfter !== undefined)
		reply.headers['retry-after'] = fault.retryAfter;
	if (reply && fault && fault.contentType !== undefined) {
		delete reply.headers['content-type'];
		if (fault.contentType !== '') reply.headers['content-type'] = fault.contentType;
	}

	const delay =
		fault && fault.delayMs !== undefined
			? fault.delayMs
			: origin === 'main'
				? state.config.latencyMs
				: 0;
	await sleep(state, delay);
	if (state.closed) return;
	send(res, reply, reqId, record, fault ? fault.reset : undefined);
}

module.exports = { handle };
