#!/usr/bin/env node
// @ts-check
'use strict';

// The node as a person meets it in the real editor: `n8n start` with the packed package, headless
// Chromium from Debian's packages, signed in as the owner. The nodes panel finds the node by its
// name and by an alias and lists its eight actions; the first example runs from the editor's
// Execute button to the end; the saved credential opens tested; Generate and Wait's panel says
// where its prompt and size come from, lists the resolutions, and shows a list's Other field right
// below the list inside Product Details; Submit Generation (No Wait), added from the nodes panel,
// offers Items in Parallel at 1; and an operator's journeys (editor-operator.js). Every wait is for a page state or a request, with the limit
// sized for a loaded machine (lib/waits.js). It shares its n8n start with the other server suites
// (lib/server-suites.js): alone, `node test/e2e/editor-test.js`.
//
// `--n8n 2.41.0` narrows the n8n versions lib/matrix.js runs it on. Environment:
// PRODUCT_IMAGE_E2E_SKIP_BUILD=1, PRODUCT_IMAGE_E2E_KEEP=1, PRODUCT_IMAGE_E2E_CACHE, as for run.js.

const path = require('node:path');
const { A_PLUS_SIMULATOR } = require('./lib/module-sizes');
const { runSuite } = require('./lib/suite');
const { runServerSuites } = require('./lib/server-suites');
const { whatFailed } = require('./lib/waits');
const { openBrowser } = require('./lib/browser');
const { openNode, openWorkflow, runWorkflow, searchNodesPanel, signIn } = require('./lib/editor');
const { info } = require('./lib/log');
const { operatorCases } = require('./editor-operator');

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
				for (const action of ACTIONS) await page.getByText(action, { exact: true }).waitFor();
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
				// The credential form tests the saved credential as it opens: the test's own request,
				// then its verdict on the page.
				const tested = page.waitForResponse(
					(r) => r.url().includes('/rest/credentials/test') && r.request().method() === 'POST',
				);
				await page.locator('[data-test-id="credential-edit-button"]').click();
				const result = (await (await tested).json())?.data;
				if (result?.status !== 'OK')
					throw new Error(`n8n's connection test answered ${JSON.stringify(result)}`);
				await page.getByText('Connection tested successfully').waitFor();
			},
		},
		{
			name: 'Generate and Wait says where its prompt and size come from, and lists the resolutions when defined below',
			run: async (page) => {
				await openWorkflow(page, url, workflowId);
				await openNode(page, 'Generate A+ images');
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.getByText('Image Settings From', { exact: true }).waitFor();
				await ndv
					.getByText("Each input item must be one module item of 'A+ Plan → Create'", {
						exact: false,
					})
					.waitFor();
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
					await listOption(page, label).waitFor();
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
				const typed = ndv.locator('[data-test-id="parameter-input-customPlatform"]');
				await chooseUntilShown(page, list, 'Other (Type Below)', typed);
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
				await page.getByText('Submit image generation without waiting', { exact: true }).click();
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.locator('[placeholder="Add Option"]').first().click();
				await chooseOption(page, 'Items in Parallel');
				const field = ndv.locator('[data-test-id="parameter-input-maxConcurrency"] input');
				await field.waitFor();
				const value = await field.inputValue();
				if (value !== '1') throw new Error(`Items in Parallel shows ${value}, not 1`);
			},
		},
	];
}

/**
 * An entry of the open dropdown list (n8n's select lists across 1.85 and 2.41).
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
	await option.waitFor();
	await option.click();
}

/**
 * Opens `list` and chooses `label` until `shown` appears. On a loaded machine a click can land
 * while n8n 1.85's list is still moving: once, the list stayed open with nothing chosen.
 * @param {import('playwright-core').Page} page @param {import('playwright-core').Locator} list
 * @param {string} label @param {import('playwright-core').Locator} shown
 */
async function chooseUntilShown(page, list, label, shown) {
	for (let attempt = 1; ; attempt++) {
		if (!(await listOption(page, label).isVisible())) await list.click();
		await chooseOption(page, label);
		try {
			await shown.waitFor({ timeout: 20_000 });
			return;
		} catch (error) {
			if (attempt === 3) throw error;
		}
	}
}

/**
 * The cases the table's row keeps for this pin, in one headless Chromium signed in as the owner.
 * A case that fails leaves a picture of the page, its path printed with the failure.
 * @param {import('./lib/server-suites').SuiteContext} ctx
 */
async function run(ctx) {
	const { server, install, userFolder, sim, workflows, row } = ctx;
	const version = install.version;
	const all = [...cases(server.url, workflows[0].id), ...operatorCases(ctx, workflows[0].id)];
	const skipped = row.skip ?? [];
	const unknown = skipped.filter((name) => !all.some((c) => c.name === name));
	if (unknown.length)
		throw new Error(`lib/matrix.js skips editor cases that do not exist: ${unknown}`);
	let passed = 0;
	let failed = 0;
	await sim.configure({ ...A_PLUS_SIMULATOR, taskDurationMs: 1000 });
	info(`n8n ${version}: editor at ${server.url}`);
	const browser = await openBrowser({ width: 1440, height: 900 });
	try {
		await signIn(browser.page, server.url);
		for (const c of all.filter((c) => !skipped.includes(c.name))) {
			const problem = await c.run(browser.page).then(
				() => undefined,
				async (err) => {
					const picture = path.join(userFolder, `${c.name.replace(/\W+/g, '-')}.png`);
					await browser.page.screenshot({ path: picture }).catch(() => {});
					return `${whatFailed(err)} (the page then: ${picture})`;
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
	return { passed, failed };
}

/** @type {import('./lib/server-suites').ServerSuite} */
const suite = {
	title: 'editor in headless Chromium',
	examples: [EXAMPLE],
	run,
};

if (require.main === module) runSuite('editor suite', () => runServerSuites(['editor']));

module.exports = { suite };
