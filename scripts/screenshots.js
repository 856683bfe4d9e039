#!/usr/bin/env node
// @ts-check
'use strict';

// The README's pictures, taken in the real n8n editor: n8n 2.41.0 with the packed package, the
// simulator behind the credential, the first example workflow, headless Chromium from Debian's
// packages. Writes docs/*.png. Needs no network beyond the npm registry and Debian's packages.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('../test/e2e/lib/config');
const { listExamples } = require('../test/e2e/lib/workflows');
const { startSimulator } = require('../test/e2e/lib/simulator');
const { A_PLUS_SIMULATOR } = require('../test/e2e/lib/module-sizes');
const { preparePackageAndN8n, prepareUserFolder, makeWorkRoot } = require('../test/e2e/lib/suite');
const { withN8nServer } = require('../test/e2e/lib/n8n-server');
const { openBrowser } = require('../test/e2e/lib/browser');
const { pngSize } = require('../test/e2e/lib/binary');
const { info } = require('../test/e2e/lib/log');
const { stopChildrenOnSignal } = require('../test/e2e/lib/proc');
const {
	closeNode,
	openNode,
	openWorkflow,
	runWorkflow,
	searchNodesPanel,
	signIn,
} = require('../test/e2e/lib/editor');

const VERSION = '2.41.0';
const EXAMPLE = 'product-photo-to-aplus-images';
const REVIEW_EXAMPLE = 'review-before-billing';
const DOCS = path.join(REPO_ROOT, 'docs');
const VIEWPORT = { width: 1440, height: 900 };

/** @param {import('playwright-core').Page} page @param {string} name */
async function shoot(page, name) {
	const file = path.join(DOCS, `${name}.png`);
	// Animations (panels sliding in) settle before the picture.
	await page.waitForTimeout(600);
	await page.screenshot({ path: file });
	const size = pngSize(fs.readFileSync(file));
	info(`wrote docs/${name}.png (${size?.width}x${size?.height})`);
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string} url
 * @param {string} workflowId
 * @param {string} reviewWorkflowId
 */
async function takePictures(page, url, workflowId, reviewWorkflowId) {
	await signIn(page, url);
	// The chain with a person in it, as it opens after the import.
	await openWorkflow(page, url, reviewWorkflowId);
	await shoot(page, 'review-before-billing');
	await openWorkflow(page, url, workflowId);

	// Found by name in the nodes panel, then its actions.
	const result = await searchNodesPanel(page, 'Product Image');
	await shoot(page, 'nodes-panel-search');
	await result.click();
	await page.getByText('Generate images and wait').waitFor();
	await shoot(page, 'nodes-panel-actions');
	await openWorkflow(page, url, workflowId);

	await runWorkflow(page, 'Fit to module size');
	await shoot(page, 'workflow-after-run');

	await openNode(page, 'Generate A+ images');
	await shoot(page, 'generate-and-wait-parameters');

	// The connection test runs when the saved credential opens.
	await page.locator('[data-test-id="credential-edit-button"]').click();
	await page.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
	await shoot(page, 'credential-test');
	await page.keyboard.press('Escape');
	await closeNode(page);

	await openNode(page, 'Fit to module size');
	const output = page.locator('[data-test-id="output-panel"]');
	await output.getByRole('button', { name: 'View' }).first().click();
	await output.locator('img, embed, iframe').first().waitFor();
	await shoot(page, 'output-image');
	await output.getByRole('button', { name: 'Back to list' }).click();

	// The images themselves, saved the way a user saves them: the output panel's Download.
	const downloads = output.getByRole('button', { name: 'Download' });
	const count = await downloads.count();
	for (let index = 0; index < count; index++) {
		const [download] = await Promise.all([
			page.waitForEvent('download'),
			downloads.nth(index).click(),
		]);
		const tmp = await download.path();
		const size = pngSize(fs.readFileSync(tmp));
		const name = `generated-${index + 1}-${size?.width}x${size?.height}`;
		fs.copyFileSync(tmp, path.join(DOCS, `${name}.png`));
		info(`wrote docs/${name}.png`);
	}
	await closeNode(page);

	// Defined below, the lists: the Resolution choices as a new user meets them (not saved).
	await openNode(page, 'Generate A+ images');
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="parameter-input-generationSource"]').click();
	await listOption(page, 'Define Below').click();
	await ndv.locator('[data-test-id="parameter-input-resolution"]').click();
	await listOption(page, 'Other (Type Below)').waitFor();
	await shoot(page, 'generate-and-wait-resolution-list');
	await page.keyboard.press('Escape');

	// Product Details: a list with Other shows its typed field right below it, in the same entry.
	await ndv.locator('[placeholder="Add Detail"]').first().click();
	await listOption(page, 'Platform').click();
	await ndv.locator('[data-test-id="parameter-input-platform"]').click();
	await listOption(page, 'Other (Type Below)').click();
	await ndv.getByText('Other Platform', { exact: true }).waitFor();
	await shoot(page, 'generate-and-wait-product-details');

	// Options: how the node runs, the settings that belong together as one entry each.
	await ndv.locator('[placeholder="Add Option"]').last().click();
	await listOption(page, 'Waiting').waitFor();
	await shoot(page, 'generate-and-wait-options');
}

/**
 * An entry of the open dropdown list.
 * @param {import('playwright-core').Page} page @param {string} label
 */
function listOption(page, label) {
	return page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.filter({ hasText: label })
		.first();
}

async function main() {
	const [example, review] = [EXAMPLE, REVIEW_EXAMPLE].map((name) => {
		const found = listExamples().find((e) => e.name === name);
		if (!found) throw new Error(`examples/${name}.json not found`);
		return found;
	});
	const workRoot = makeWorkRoot('product-image-screenshots');
	const { installs, tarball } = await preparePackageAndN8n({ versions: [VERSION], workRoot });
	const sim = await startSimulator();
	try {
		await sim.configure({ ...A_PLUS_SIMULATOR, taskDurationMs: 1500 });
		const userFolder = path.join(workRoot, `n8n-${VERSION}`);
		const { workflows } = await prepareUserFolder({
			install: installs.n8n[VERSION],
			tarball,
			userFolder,
			service: sim,
			examples: [example, review],
			pins: 'pinData',
			binaryMode: 'filesystem',
		});
		fs.mkdirSync(DOCS, { recursive: true });
		for (const old of fs.readdirSync(DOCS).filter((f) => f.endsWith('.png')))
			fs.rmSync(path.join(DOCS, old));
		await withN8nServer({ install: installs.n8n[VERSION], userFolder }, async (server) => {
			info(`n8n ${VERSION} at ${server.url}; taking pictures`);
			const browser = await openBrowser(VIEWPORT);
			try {
				await takePictures(browser.page, server.url, workflows[0].id, workflows[1].id);
			} catch (err) {
				await browser.page.screenshot({ path: path.join(workRoot, 'failure.png') }).catch(() => {});
				throw new Error(
					`${err instanceof Error ? err.message : String(err)} (the page at that moment: ${path.join(workRoot, 'failure.png')})`,
				);
			} finally {
				await browser.close();
			}
		});
		fs.rmSync(workRoot, { recursive: true, force: true });
	} finally {
		await sim.stop();
	}
}

stopChildrenOnSignal();
main().catch((err) => {
	console.error(`screenshots failed: ${err instanceof Error ? err.message : String(err)}`);
	process.exitCode = 1;
});
