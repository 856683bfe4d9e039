// @ts-check
'use strict';

// Writes the figures of a passing run into docs/large-catalogues.md between its markers, so the
// page shows only what this command measured.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../../e2e/lib/config');

/**
 * Replaces what stands between `<!-- <marker>:start -->` and `<!-- <marker>:end -->` in
 * docs/large-catalogues.md with a line naming the command and `when`, then `lines` as a list.
 * False when the page has no such markers.
 * @param {{marker: string, command: string, when: string, lines: string[]}} o
 */
function writeFiguresBetween(o) {
	const start = `<!-- ${o.marker}:start -->`;
	const end = `<!-- ${o.marker}:end -->`;
	const file = path.join(REPO_ROOT, 'docs', 'large-catalogues.md');
	const text = fs.readFileSync(file, 'utf8');
	const from = text.indexOf(start);
	const to = text.indexOf(end);
	if (from < 0 || to < from) return false;
	const body = [
		start,
		`<!-- Written by \`${o.command}\` (${o.when}). Edits here are overwritten. -->`,
		'',
		...o.lines.map((l) => `- ${l}`),
		'',
	].join('\n');
	fs.writeFileSync(file, text.slice(0, from) + body + text.slice(to));
	return true;
}

/** @param {string[]} lines @param {string} when */
function writeReadmeFigures(lines, when) {
	return writeFiguresBetween({
		marker: 'queue-figures',
		command: 'node test/queue/run.js --write-readme',
		when,
		lines,
	});
}

module.exports = { writeReadmeFigures, writeFiguresBetween };
