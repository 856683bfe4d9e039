// @ts-check
'use strict';

/** @typedef {import('./config').ErrorShape} ErrorShape */

/** @type {Record<number, string>} */
const STRING_CODES = {
	400: 'invalid_request',
	401: 'unauthorized',
	403: 'forbidden',
	404: 'not_found',
	405: 'method_not_allowed',
	408: 'request_timeout',
	409: 'conflict',
	410: 'gone',
	413: 'payload_too_large',
	415: 'unsupported_media_type',
	422: 'validation_error',
	429: 'rate_limited',
	500: 'internal_error',
	502: 'bad_gateway',
	503: 'service_unavailable',
	504: 'gateway_timeout',
};

/** @param {number} status */
const stringCode = (status) => STRING_CODES[status] || `http_${status}`;

/**
 * The error body in one of the shapes a client may meet; the spec leaves the real shape
 * open, so clients are exercised against all of them.
 * @param {ErrorShape} shape
 * @param {number} status
 * @param {string} message
 * @param {string} requestId
 * @returns {Record<string, unknown>}
 */
function errorBody(shape, status, message, requestId) {
	switch (shape) {
		case 'nested':
			return { error: { code: stringCode(status), message }, request_id: requestId };
		case 'detail':
			return { detail: message };
		case 'msg':
			return { code: status, msg: message, data: null, request_id: requestId };
		case 'envelope':
		default:
			return { code: status, message, request_id: requestId };
	}
}

/**
 * S3-style error document, as object stores answer (the request id travels in a header).
 * @param {string} code
 * @param {string} message
 */
function xmlError(code, message) {
	/** @param {string} s */
	const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	return `<Error><Code>${esc(code)}</Code><Message>${esc(message)}</Message></Error>`;
}

module.exports = { errorBody, xmlError };
