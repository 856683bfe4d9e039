// @ts-check
'use strict';

// Writes the figures of a passing run into docs/large-catalogues.md between its markers, so the
// page shows only what this command measured.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../../e2e/lib/config');

const START = '<!-- queue-figures:start -->';
const END = '<!-- queue-figures:end -->';

/** @param {string[]} lines @param {string} when */
function writeReadmeFigures(lines, when) {
	const file = path.join(REPO_ROOT, 'docs', 'large-catalogues.md');
	const text = fs.readFileSync(file, 'utf8');
	const from = text.indexOf(START);
	const to = text.indexOf(END);
	if (from < 0 || to < from) return false;
	const body = [
		START,
		`<!-- Written by \`node test/queue/run.js --write-readme\` (${when}). Edits here are overwritten. -->`,
		'',
		...lines.map((l) => `- ${l}`),
		'',
	].join('\n');
	fs.writeFileSync(file, text.slice(0, from) + body + text.slice(to));
	return true;
}

module.exports = { writeReadmeFigures };
