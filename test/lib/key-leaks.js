// @ts-check
'use strict';

// What counts as the API key showing up somewhere a person or a log can read: the key itself, any
// 12-character piece of it (a key cut short or partly masked still gives most of it away), and
// its base64 form (a Basic header, an encoded dump).

const FRAGMENT = 12;

/** @param {string} key @returns {string[]} the key first, then its pieces, then its base64 form */
function keyForms(key) {
	if (key.length < FRAGMENT) return [key, Buffer.from(key).toString('base64')];
	const pieces = new Set();
	for (let start = 0; start + FRAGMENT <= key.length; start++)
		pieces.add(key.slice(start, start + FRAGMENT));
	pieces.delete(key);
	return [key, ...pieces, Buffer.from(key).toString('base64')];
}

/**
 * How the key shows in `text`: 'the key', 'part of the key', or undefined when it does not.
 * @param {string} text @param {string} key
 */
function keyLeak(text, key) {
	if (!key) throw new Error('keyLeak: no key to search for');
	if (text.includes(key)) return 'the key';
	return keyForms(key).some((form) => text.includes(form)) ? 'part of the key' : undefined;
}

/**
 * Places in `text` where any form of the key starts (overlapping pieces of one leak count once).
 * @param {string} text @param {string} key
 */
function keyLeakCount(text, key) {
	const starts = new Set();
	for (const form of keyForms(key)) {
		for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) starts.add(at);
	}
	// Neighbouring starts belong to one leak: count a start only if no start lies just before it.
	return [...starts].filter((at) => !starts.has(at - 1)).length;
}

module.exports = { keyLeak, keyLeakCount };
