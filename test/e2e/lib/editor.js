// @ts-check
'use strict';

// What a person does in the n8n editor, as steps for the editor test and the screenshot script:
// sign in, open a workflow, search the nodes panel, open a node, run the workflow. Selectors are
// the editor's own data-test-id attributes (n8n 2.41 and 1.85). Each step waits for the page
// state it needs, with the page's default limit (lib/browser.js, sized for a loaded machine).

const { OWNER } = require('./n8n-server');
const { LOADED_RUN_MS } = require('./waits');

/** @param {import('playwright-core').Page} page @param {string} url */
async function signIn(page, url) {
	await page.goto(`${url}/signin`);
	await page.fill('input[name="emailOrLdapLoginId"]', OWNER.email);
	await page.fill('input[name="password"]', OWNER.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL(/\/(home|workflows)/);
}

/** @param {import('playwright-core').Page} page @param {string} url @param {string} workflowId */
async function openWorkflow(page, url, workflowId) {
	await page.goto(`${url}/workflow/${workflowId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
}

/** @param {import('playwright-core').Page} page @param {string} name */
function canvasNode(page, name) {
	return page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
}

/**
 * Opens the nodes panel, types a search and finds the node it should list.
 * @param {import('playwright-core').Page} page @param {string} query @param {string} [nodeName] default: the query
 */
async function searchNodesPanel(page, query, nodeName = query) {
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	// Typed into the search field once it is there: keys pressed while the panel still opens are lost.
	const search = page.getByPlaceholder('Search nodes...');
	await search.waitFor();
	await search.fill(query);
	const result = page
		.locator('[data-test-id="item-iterator-item"]', {
			has: page.locator('[data-test-id="node-creator-item-name"]', { hasText: nodeName }),
		})
		.first();
	await result.waitFor().catch(() => {
		throw new Error(`the nodes panel lists no "${nodeName}" for the search "${query}"`);
	});
	return result;
}

/**
 * Runs the open workflow from its Execute button and waits until the last node shows its items,
 * or any node shows an error (the run is over then: no need to wait out the limit).
 * @param {import('playwright-core').Page} page @param {string} lastNode
 */
async function runWorkflow(page, lastNode) {
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	const done = canvasNode(page, lastNode).locator('[data-test-id="canvas-node-status-success"]');
	const failed = page.locator('[data-test-id="canvas-node-status-error"]');
	await done.or(failed).first().waitFor({ timeout: LOADED_RUN_MS });
	if (!(await done.isVisible())) {
		const names = await page
			.locator('[data-test-id="canvas-node"]', { has: failed })
			.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-node-name')));
		throw new Error(`the run ended with an error in ${names.join(', ')}`);
	}
}

/** @param {import('playwright-core').Page} page @param {string} name */
async function openNode(page, name) {
	await canvasNode(page, name).dblclick();
	await page.locator('[data-test-id="ndv"]').waitFor();
}

/** @param {import('playwright-core').Page} page */
async function closeNode(page) {
	await page.keyboard.press('Escape');
	await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
}

module.exports = { signIn, openWorkflow, searchNodesPanel, runWorkflow, openNode, closeNode };
