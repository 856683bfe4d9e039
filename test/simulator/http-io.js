// @ts-check
'use strict';

/**
 * @typedef {import('./reply').Reply} Reply
 * @typedef {import('./state').SimState} SimState
 * @typedef {import('./state').RequestRecord} RequestRecord
 * @typedef {import('./faults').FaultReset} FaultReset
 */

/**
 * Reads the whole request body. Past `limit` the bytes are drained and dropped rather than
 * refused early, because a client still sending its body would otherwise see a broken pipe
 * instead of the 413 it should get.
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit
 * @returns {Promise<{body: Buffer, size: number, truncated: boolean}>}
 */
function readBody(req, limit) {
	return new Promise((resolve, reject) => {
		/** @type {Buffer[]} */
		const chunks = [];
		let size = 0;
		let kept = 0;
		let done = false;
		req.on('data', (/** @type {Buffer} */ chunk) => {
			size += chunk.length;
			if (kept + chunk.length <= limit) {
				chunks.push(chunk);
				kept += chunk.length;
			}
		});
		req.on('end', () => {
			done = true;
			resolve({ body: Buffer.concat(chunks, kept), size, truncated: size > kept });
		});
		req.on('error', (err) => {
			if (!done) reject(err);
		});
		req.on('close', () => {
			if (!done) reject(new Error('client closed the connection before the body ended'));
		});
	});
}

/**
 * A delay that close() can cancel, so a long simulated stall never keeps the process alive.
 * @param {SimState} state
 * @param {number} ms
 * @returns {Promise<void>}
 */
function sleep(state, ms) {
	if (!(ms > 0)) return Promise.resolve();
	return new Promise((resolve) => {
		const timer = setTimeout(() => {
			state.timers.delete(timer);
			resolve();
		}, ms);
		state.timers.add(timer);
	});
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {Reply | undefined} reply undefined when the connection is to be cut before any byte
 * @param {string} reqId
 * @param {RequestRecord} record
 * @param {FaultReset | undefined} reset
 */
function send(res, reply, reqId, record, reset) {
	if (!reply || reset === 'beforeResponse') {
		res.destroy();
		return;
	}
	/** @type {Record<string, string>} */
	const headers = { ...reply.headers, 'x-request-id': reqId };
	if (reply.status !== 204 && reply.status !== 304)
		headers['content-length'] = String(reply.body.length);
	record.status = reply.status;
	if (res.destroyed) return;
	res.writeHead(reply.status, headers);
	if (reset === 'midBody') {
		// Content-Length announces the whole body; the connection dies after half of it.
		const part = reply.body.subarray(0, Math.floor(reply.body.length / 2));
		if (part.length > 0) {
			res.write(part, () => res.destroy());
		} else {
			res.flushHeaders();
			setImmediate(() => res.destroy());
		}
		return;
	}
	res.end(reply.body);
}

/**
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} value
 */
function sendJson(res, status, value) {
	const body = Buffer.from(JSON.stringify(value), 'utf8');
	res.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': String(body.length),
	});
	res.end(body);
}

module.exports = { readBody, sleep, send, sendJson };
