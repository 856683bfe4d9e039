// @ts-check
'use strict';

// What runs on which pinned n8n, in one table: the real-n8n suites, and for the headless one
// (`n8n execute`, run.js) which workflows in which binary data modes. `npm test` runs the table pin
// by pin, newest first (scripts/test.js); docs/development.md ("What runs on which n8n") says why
// each row is there. The suites' flags only narrow it (lib/filters.js).

const path = require('node:path');
const { REPO_ROOT, N8N_PINS } = require('./config');
const { parseFilters, keep } = require('./filters');

/**
 * Folders of workflows. A folder's own `expectations/`, `pins/` and `files/` replace the examples'
 * (test/e2e/expectations, the pins in test/e2e/fixtures, no files).
 */
const SETS = {
	examples: path.join(REPO_ROOT, 'examples'),
	// The 0.2.0 examples exactly as saved (node version 1), checked as they were checked then.
	'v1-workflows': path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'v1-workflows'),
	// Replies in shapes the service's description does not show.
	'reply-shapes': path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'reply-shapes'),
	// A file read from disk, uploaded and written back under Binary Mode "combined".
	'combined-workflows': path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'combined-workflows'),
};

/**
 * `default` is n8n's in-memory binary data, `filesystem` its file store, `combined` the file store
 * under the workflow setting Binary Mode "combined" (n8n 2.x).
 * @typedef {'default' | 'filesystem' | 'combined'} RunMode
 * @typedef {keyof typeof SETS} SetName
 * @typedef {{n8n: string, suite: 'workflows', set: SetName, only?: string[], modes: RunMode[]}} WorkflowRow
 * @typedef {{n8n: string, suite: 'credential' | 'editor' | 'catalog' | 'queue' | 'ssrf' | 'review', skip?: string[]}} ServerRow
 *   `skip`: cases of the suite (by name) this pin leaves to another pin or suite
 * @typedef {WorkflowRow | ServerRow} Row
 */

const A_PLUS = 'product-photo-to-aplus-images';
const AGENT = 'ai-agent-product-images';
const SHOPIFY = 'shopify-catalogue-images';
const AMAZON = 'amazon-aplus-content';

/** @type {Row[]} */
const MATRIX = [
	// The newest line: every workflow, in the file store (2.x's default; memory is deprecated there
	// and the engine suites run it on the same n8n-core), Binary Mode "combined" where it is new.
	{ n8n: '2.41.0', suite: 'workflows', set: 'examples', modes: ['filesystem'] },
	{ n8n: '2.41.0', suite: 'workflows', set: 'examples', only: [A_PLUS], modes: ['combined'] },
	{ n8n: '2.41.0', suite: 'workflows', set: 'reply-shapes', modes: ['filesystem'] },
	{ n8n: '2.41.0', suite: 'workflows', set: 'combined-workflows', modes: ['combined'] },
	// What a 0.2.0 user meets after updating n8n: the workflows saved with version 1, as saved.
	{
		n8n: '2.41.0',
		suite: 'workflows',
		set: 'v1-workflows',
		only: [A_PLUS, SHOPIFY, AMAZON, AGENT],
		modes: ['filesystem'],
	},
	{ n8n: '2.41.0', suite: 'credential' },
	{ n8n: '2.41.0', suite: 'editor' },
	// The catalog pair set up in the editor as the README says (catalog-setup-test.js).
	{ n8n: '2.41.0', suite: 'catalog' },
	{ n8n: '2.41.0', suite: 'queue' },
	// n8n's SSRF protection on, the service's address not allowed: n8n's refusal, named as such.
	{ n8n: '2.41.0', suite: 'ssrf' },
	// A person answers the review example's forms on a running n8n (review-test.js).
	{ n8n: '2.41.0', suite: 'review' },
	// The oldest line: the saved version 1 workflows in memory (1.x's default), the one that reads a
	// file also in the file store, and the current version's upload-to-images path in both 1.x
	// modes.
	{
		n8n: '1.85.4',
		suite: 'workflows',
		set: 'v1-workflows',
		only: [A_PLUS, SHOPIFY, AMAZON],
		modes: ['default'],
	},
	{ n8n: '1.85.4', suite: 'workflows', set: 'v1-workflows', only: [A_PLUS], modes: ['filesystem'] },
	{
		n8n: '1.85.4',
		suite: 'workflows',
		set: 'examples',
		only: [A_PLUS],
		modes: ['default', 'filesystem'],
	},
	// 1.x's editor reads the node's description with its own code (the nodes panel's search, the
	// display conditions, the options): those cases run here. The runs from the Execute buttons (the
	// first example; 20 products, one refused) are n8n's engine, which the headless runs of this pin
	// test, and the credential that opens tested is the endpoint the credential test calls on the
	// same n8n start.
	{
		n8n: '1.85.4',
		suite: 'editor',
		skip: [
			'the first example runs from the Execute button to its last node',
			"the saved credential opens with n8n's connection test passed",
			"20 products, one refused, On Error set to Continue in Settings: 19 images, the failed item keeps its product, the output's hint counts it",
		],
	},
	{ n8n: '1.85.4', suite: 'credential' },
];

/** @param {Row} row @returns {row is WorkflowRow} */
function isWorkflowRow(row) {
	return row.suite === 'workflows';
}

/**
 * The pins a suite runs on, newest first, narrowed by the script's `--n8n` flag.
 * @param {Row['suite']} suite
 * @param {string[]} [argv] the script's arguments
 */
function pinsOf(suite, argv = process.argv.slice(2)) {
	const { n8n, rest } = parseFilters(argv, ['n8n']);
	if (rest.length) throw new Error(`unknown arguments: ${rest.join(' ')}`);
	const pins = N8N_PINS.map((p) => p.version).filter((v) =>
		MATRIX.some((row) => row.n8n === v && row.suite === suite),
	);
	return keep(pins, n8n, `n8n version for the ${suite} suite`);
}

module.exports = { SETS, MATRIX, isWorkflowRow, pinsOf };
