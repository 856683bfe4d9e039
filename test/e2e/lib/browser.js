// @ts-check
'use strict';

// Headless Chromium from Debian's packages, driven by playwright-core (which downloads no browser
// of its own), each run in a fresh temporary profile. The flags keep Chromium off the network:
// this machine's closed network refuses its background connections, many at a time.

const fs = require('node:fs');
const { ensurePackages } = require('./system-packages');
const { LOADED_MACHINE_MS } = require('./waits');

const CHROMIUM = '/usr/bin/chromium';

/** @returns {Promise<string>} */
async function ensureChromium() {
	await ensurePackages('Chromium', ['chromium'], () => fs.existsSync(CHROMIUM));
	return CHROMIUM;
}

/**
 * @param {{width: number, height: number}} viewport
 * @returns {Promise<{page: import('playwright-core').Page, close: () => Promise<void>}>}
 */
async function openBrowser(viewport) {
	const { chromium } = require('playwright-core');
	const browser = await chromium.launch({
		executablePath: await ensureChromium(),
		headless: true,
		args: [
			'--no-sandbox',
			// Its renderers are then the browser's own children: the test command's count of a step's
			// processor time (scripts/lib/processor-time.js) includes those the browser waits for before
			// it ends, most of them on a quiet machine, fewer on a loaded one.
			'--no-zygote',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
	// Every wait of a page (a locator, a click, a navigation) ends when its state comes; the
	// limit is the one sized for a loaded machine (lib/waits.js), never Playwright's 30 s.
	context.setDefaultTimeout(LOADED_MACHINE_MS);
	context.setDefaultNavigationTimeout(LOADED_MACHINE_MS);
	const page = await context.newPage();
	return { page, close: () => browser.close() };
}

module.exports = { openBrowser, ensureChromium };
