// @ts-check
'use strict';

/** @type {Set<string>} */
const secrets = new Set();

/**
 * Every text this suite prints passes through `redact`, so a key registered here cannot
 * leak through a log line, a run dump or an error message.
 * @param {string | undefined} value
 */
function addSecret(value) {
	if (value && value.length >= 4) secrets.add(value);
}

/** @param {string} text */
function redact(text) {
	let out = String(text);
	for (const secret of secrets) out = out.split(secret).join('***');
	return out;
}

module.exports = { addSecret, redact };
