#!/usr/bin/env node
// @ts-check
'use strict';

// The node as a person meets it in the real editor: `n8n start` with the packed package, headless
// Chromium from Debian's packages, signed in as the owner. The nodes panel finds the node by its
// name and by an alias and lists its eight actions; the first example runs from the editor's
// Execute button to the end; the saved credential opens tested; Generate and Wait's panel says
// where its prompt and size come from, lists the resolutions, and shows a list's Other field right
// below the list inside Product Details; Submit Generation (No Wait), added from the nodes panel,
// offers Items in Parallel at 1.
//
// `--n8n 2.41.0` narrows the n8n versions lib/matrix.js runs it on. Environment:
// PRODUCT_IMAGE_E2E_SKIP_BUILD=1, PRODUCT_IMAGE_E2E_KEEP=1, PRODUCT_IMAGE_E2E_CACHE, as for run.js.

const path = require('node:path');
const { pinsOf } = require('./lib/matrix');
const { listExamples } = require('./lib/workflows');
const { startSimulator } = require('./lib/simulator');
const { A_PLUS_SIMULATOR } = require('./lib/module-sizes');
const {
	preparePackageAndN8n,
	prepareUserFolder,
	makeWorkRoot,
	finishWorkRoot,
	runSuite,
} = require('./lib/suite');
const { withN8nServer } = require('./lib/n8n-server');
const { openBrowser } = require('./lib/browser');
const { openNode, openWorkflow, runWorkflow, searchNodesPanel, signIn } = require('./lib/editor');
const { info } = require('./lib/log');

const EXAMPLE = 'product-photo-to-aplus-images';
const ACTIONS = [
	'Upload image',
	'Submit image generation without waiting',
	'Generate images and wait',
	'Download image',
	'Analyze product photos',
	'Create A+ plan',
	'Get task status',
	'Wait for task to complete',
];

/**
 * @typedef {{name: string, run: (page: import('playwright-core').Page) => Promise<void>}} Case
 * @param {string} url @param {string} workflowId
 * @returns {Case[]}
 */
function cases(url, workflowId) {
	return [
		{
			name: 'the nodes panel finds the node by its name and lists its eight actions',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				const result = await searchNodesPanel(page, 'Product Image');
				await result.click();
				for (const action of ACTIONS)
					await page.getByText(action, { exact: true }).waitFor({ timeout: 10_000 });
			},
		},
		{
			name: 'the nodes panel finds the node by an alias ("A+ content")',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				await searchNodesPanel(page, 'A+ content', 'Product Image');
			},
		},
		{
			name: 'the first example runs from the Execute button to its last node',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				await runWorkflow(page, 'Fit to module size');
				const failed = await page.locator('[data-test-id="canvas-node-status-error"]').count();
				if (failed) throw new Error(`${failed} node(s) of the run show an error`);
			},
		},
		{
			name: "the saved credential opens with n8n's connection test passed",
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				await openNode(page, 'Generate A+ images');
				await page.locator('[data-test-id="credential-edit-button"]').click();
				await page.getByText('Connection tested successfully').waitFor({ timeout: 30_000 });
			},
		},
		{
			name: 'Generate and Wait says where its prompt and size come from, and lists the resolutions when defined below',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				await openNode(page, 'Generate A+ images');
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.getByText('Image Settings From', { exact: true }).waitFor({ timeout: 10_000 });
				await ndv
					.getByText("Each input item must be one module item of 'A+ Plan → Create'", {
						exact: false,
					})
					.waitFor({ timeout: 10_000 });
				if (await ndv.locator('[data-test-id="parameter-input-resolution"]').count()) {
					throw new Error('Resolution is shown although the module item sets it');
				}
				await ndv.locator('[data-test-id="parameter-input-generationSource"]').click();
				await chooseOption(page, 'Define Below');
				await ndv.locator('[data-test-id="parameter-input-resolution"]').click();
				for (const label of [
					'1K (Long Side About 1024 Pixels)',
					'2K (Long Side About 2048 Pixels)',
					'4K (Long Side About 4096 Pixels)',
					'Other (Type Below)',
				]) {
					await listOption(page, label).waitFor({ timeout: 10_000 });
				}
			},
		},
		{
			name: 'a list with Other in Product Details shows its typed field right below it once Other is chosen',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				await openNode(page, 'Generate A+ images');
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.locator('[placeholder="Add Detail"]').first().click();
				await chooseOption(page, 'Platform');
				const list = ndv.locator('[data-test-id="parameter-input-platform"]');
				await list.click();
				await chooseOption(page, 'Other (Type Below)');
				const typed = ndv.locator('[data-test-id="parameter-input-customPlatform"]');
				await typed.waitFor({ timeout: 10_000 });
				const [above, below] = [await list.boundingBox(), await typed.boundingBox()];
				if (!above || !below || below.y <= above.y || below.y - above.y > 150)
					throw new Error("'Other Platform' is not right below the Platform list");
			},
		},
		{
			name: 'Submit Generation (No Wait), added from the nodes panel, offers Items in Parallel among its options, at 1',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				const result = await searchNodesPanel(page, 'Product Image');
				await result.click();
				await page
					.getByText('Submit image generation without waiting', { exact: true })
					.click({ timeout: 10_000 });
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.locator('[placeholder="Add Option"]').first().click({ timeout: 10_000 });
				await chooseOption(page, 'Items in Parallel');
				const field = ndv.locator('[data-test-id="parameter-input-maxConcurrency"] input');
				await field.waitFor({ timeout: 10_000 });
				const value = await field.inputValue();
				if (value !== '1') throw new Error(`Items in Parallel shows ${value}, not 1`);
			},
		},
	];
}

/**
 * An entry of the open dropdown list (n8n's select lists across 1.123 and 2.41).
 * @param {import('playwright-core').Page} page @param {string} label
 */
function listOption(page, label) {
	return page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.filter({ hasText: label })
		.first();
}

/** @param {import('playwright-core').Page} page @param {string} label */
async function chooseOption(page, label) {
	const option = listOption(page, label);
	await option.waitFor({ timeout: 10_000 });
	await option.click();
}

const versions = () => pinsOf('editor');

async function main() {
	const started = Date.now();
	const example = listExamples().find((e) => e.name === EXAMPLE);
	if (!example) throw new Error(`examples/${EXAMPLE}.json not found`);
	const workRoot = makeWorkRoot('product-image-editor');
	const { installs, tarball } = await preparePackageAndN8n({ versions: versions(), workRoot });
	const sim = await startSimulator();
	let passed = 0;
	let failed = 0;
	try {
		await sim.configure({ ...A_PLUS_SIMULATOR, taskDurationMs: 1000 });
		for (const version of versions()) {
			const userFolder = path.join(workRoot, `n8n-${version}`);
			const { workflows } = await prepareUserFolder({
				install: installs.n8n[version],
				tarball,
				userFolder,
				service: sim,
				examples: [example],
				pins: 'pinData',
			});
			await withN8nServer({ install: installs.n8n[version], userFolder }, async (server) => {
				info(`n8n ${version}: editor at ${server.url}`);
				const browser = await openBrowser({ width: 1440, height: 900 });
				try {
					await signIn(browser.page, server.url);
					for (const c of cases(server.url, workflows[0].id)) {
						const problem = await c.run(browser.page).then(
							() => undefined,
							async (err) => {
								const picture = path.join(userFolder, `${c.name.replace(/\W+/g, '-')}.png`);
								await browser.page.screenshot({ path: picture }).catch(() => {});
								return `${err instanceof Error ? err.message.split('\n')[0] : String(err)} (the page then: ${picture})`;
							},
						);
						if (problem) failed += 1;
						else passed += 1;
						console.log(
							`${problem ? 'FAIL' : 'PASS'} n8n ${version} editor: ${c.name}${problem ? `\n      ${problem}` : ''}`,
						);
					}
				} finally {
					await browser.close();
				}
			});
		}
	} finally {
		await sim.stop();
		finishWorkRoot(workRoot, failed, started);
	}
	return { passed, failed };
}

runSuite('editor suite', main);
