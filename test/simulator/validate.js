// @ts-check
'use strict';

/** @param {unknown} value */
function isHttpUrl(value) {
	if (typeof value !== 'string' || value === '') return false;
	try {
		const u = new URL(value);
		return u.protocol === 'http:' || u.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * @param {unknown} value
 * @param {string} field
 * @param {number} min
 * @param {number} max
 * @returns {string | undefined} an error message naming the field, or undefined if valid
 */
function checkUrlList(value, field, min, max) {
	const range = Number.isFinite(max) ? `${min} to ${max}` : `at least ${min}`;
	if (!Array.isArray(value)) return `${field} must be an array of ${range} http(s) URLs`;
	if (value.length < min || value.length > max) {
		return `${field} must contain ${range} http(s) URLs, got ${value.length}`;
	}
	const bad = value.findIndex((v) => !isHttpUrl(v));
	if (bad >= 0) return `${field}[${bad}] must be an http(s) URL, got ${JSON.stringify(value[bad])}`;
	return undefined;
}

/**
 * @param {Record<string, unknown>} body
 * @param {string[]} fields
 * @returns {string | undefined}
 */
function checkOptionalStrings(body, fields) {
	for (const f of fields) {
		if (body[f] !== undefined && body[f] !== null && typeof body[f] !== 'string')
			return `${f} must be a string`;
	}
	return undefined;
}

/**
 * @param {Buffer} body
 * @returns {{ok: true, value: Record<string, unknown>} | {ok: false, message: string}}
 */
function parseJsonObject(body) {
	let value;
	try {
		value = JSON.parse(body.toString('utf8'));
	} catch {
		return { ok: false, message: 'Request body is not valid JSON' };
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		return { ok: false, message: 'Request body must be a JSON object' };
	}
	return { ok: true, value };
}

module.exports = { checkUrlList, checkOptionalStrings, parseJsonObject };
