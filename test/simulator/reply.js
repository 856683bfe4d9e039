// @ts-check
'use strict';

const { errorBody } = require('./errors');

/**
 * @typedef {import('./state').SimState} SimState
 * @typedef {import('./state').Route} Route
 * @typedef {import('./state').RequestRecord} RequestRecord
 *
 * A reply is built whole before anything is written, so that faults can delay it,
 * cut it short or replace it.
 * @typedef {object} Reply
 * @property {number} status
 * @property {Record<string, string>} headers
 * @property {Buffer} body
 *
 * @typedef {object} Context
 * @property {SimState} state
 * @property {import('node:http').IncomingMessage} req
 * @property {'main' | 'cdn'} origin
 * @property {Route} route
 * @property {string} param decoded path remainder (task id, asset id), '' if none
 * @property {string} pathname
 * @property {URLSearchParams} query
 * @property {Buffer} body
 * @property {number} bodySize bytes received, also those dropped past the read limit
 * @property {boolean} bodyTruncated
 * @property {string} reqId
 * @property {RequestRecord} record
 */

/**
 * @param {number} status
 * @param {unknown} value
 * @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
function jsonReply(status, value, headers = {}) {
	return {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
		body: Buffer.from(JSON.stringify(value), 'utf8'),
	};
}

/**
 * @param {Context} ctx
 * @param {number} status
 * @param {string} message
 * @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
function errorReply(ctx, status, message, headers = {}) {
	return jsonReply(
		status,
		errorBody(ctx.state.config.errorShape, status, message, ctx.reqId),
		headers,
	);
}

/**
 * @param {number} status
 * @param {string} contentType
 * @param {Buffer} body
 * @param {Record<string, string>} [headers]
 * @returns {Reply}
 */
function bytesReply(status, contentType, body, headers = {}) {
	return { status, headers: { 'content-type': contentType, ...headers }, body };
}

/**
 * The success envelope; `request_id` is always last as the service shows it.
 * @param {Context} ctx
 * @param {number} code
 * @param {Record<string, unknown>} data
 * @param {number} [status]
 */
function envelopeReply(ctx, code, data, status = code) {
	return jsonReply(status, { code, data, request_id: ctx.reqId });
}

/**
 * Synchronous operations may answer inside `data` or beside it; the spec leaves it open.
 * @param {Context} ctx
 * @param {Record<string, unknown>} result
 */
function resultReply(ctx, result) {
	if (ctx.state.config.resultsInData) return envelopeReply(ctx, 200, result);
	return jsonReply(200, { code: 200, ...result, request_id: ctx.reqId });
}

module.exports = { jsonReply, errorReply, bytesReply, envelopeReply, resultReply };
