// @ts-check
'use strict';

// Two journeys of an operator who writes no code, in the real editor: 20 products at once, one
// refused by the service, kept going with the node's Settings → On Error → Continue; and an A+
// module found in the Modules list by the code the plan's items hold ('hero').

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./lib/config');
const { openNode, openWorkflow } = require('./lib/editor');

const NODE = 'Generate listing image';
const PRODUCTS = 20;

/** The Shopify example's node after 20 pinned products, all submitted at once. */
function twentyProducts() {
	const example = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'examples', 'shopify-catalogue-images.json'), 'utf8'),
	);
	const pins = JSON.parse(
		fs.readFileSync(path.join(__dirname, 'fixtures', 'shopify-catalogue-images.pin.json'), 'utf8'),
	);
	const node = example.nodes.find((/** @type {any} */ n) => n.name === NODE);
	node.parameters.options = { maxConcurrency: PRODUCTS };
	const products = Array.from({ length: PRODUCTS }, (_, i) => {
		const product = pins['Get products'][i % 2];
		return { ...product, id: 9000 + i, title: `${product.title} ${i + 1}` };
	});
	const to = (/** @type {string} */ name) => ({ main: [[{ node: name, type: 'main', index: 0 }]] });
	return {
		name: '20 products, one refused',
		nodes: [
			{
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				name: 'Get products',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
			{ ...node, position: [440, 0] },
		],
		connections: { Start: to('Get products'), 'Get products': to(NODE) },
		pinData: { 'Get products': products.map((json) => ({ json })) },
		settings: {},
	};
}

/**
 * @param {import('./lib/server-suites').SuiteContext} ctx
 * @param {string} aPlusWorkflowId the A+ example, imported
 * @returns {import('./editor-test').Case[]}
 */
function operatorCases({ server, sim, install }, aPlusWorkflowId) {
	return [
		{
			name: "20 products, one refused, On Error set to Continue in Settings: 19 images, the failed item keeps its product, the output's hint counts it",
			run: async (page) => {
				const created = await server.rest('POST', '/workflows', twentyProducts());
				const id = created.json?.data?.id;
				if (!id) throw new Error(`POST /rest/workflows: HTTP ${created.status}`);
				await sim.faults({ route: 'submit', status: 422, message: 'The prompt was refused' });
				await openWorkflow(page, server.url, id);
				await openNode(page, NODE);
				const ndv = page.locator('[data-test-id="ndv"]');
				await ndv.locator('[data-test-id="tab-settings"]').click();
				await ndv.locator('[data-test-id="parameter-input-onError"]').click();
				await page
					.locator('.el-select-dropdown__item:visible')
					.filter({ has: page.getByText('Continue', { exact: true }) })
					.click();
				await ndv.locator('[data-test-id="node-execute-button"]').first().click();
				await ndv.getByText(`1 of ${PRODUCTS} items failed: item `).waitFor();
				const items = await lastRunItems(server, install, id);
				const failed = items.filter((item) => item.json.error);
				const images = items.filter((item) => item.binary && !item.json.error);
				if (items.length !== PRODUCTS || failed.length !== 1 || images.length !== PRODUCTS - 1)
					throw new Error(
						`${items.length} items, ${images.length} with an image, ${failed.length} failed`,
					);
				if (!/^9\d{3}$/.test(String(failed[0].json.id)) || !failed[0].json.title)
					throw new Error(`the failed item holds no product: ${JSON.stringify(failed[0].json)}`);
			},
		},
		{
			name: "A+ Plan → Create: typing 'hero' in the Modules list's filter finds its module",
			run: async (page) => {
				await openWorkflow(page, server.url, aPlusWorkflowId);
				await openNode(page, 'Plan A+ content');
				const modules = page.locator(
					'[data-test-id="ndv"] [data-test-id="parameter-input-modules"]',
				);
				await modules.click();
				const entry = (/** @type {string} */ title) =>
					page
						.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
						.filter({ hasText: title })
						.first();
				await entry('Core Selling Points').waitFor();
				await page.keyboard.type('hero');
				// The filter has run once the entries without 'hero' are gone.
				await entry('Core Selling Points').waitFor({ state: 'hidden' });
				await entry('Premium First-Screen Key Visual').waitFor();
			},
		},
	];
}

/**
 * The node's items in the workflow's newest execution, as n8n saved it.
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {import('./install-n8n').N8nInstall} install
 * @param {string} workflowId
 * @returns {Promise<any[]>}
 */
async function lastRunItems(server, install, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await server.rest('GET', `/executions?limit=1&filter=${filter}`);
	const newest = list.json?.data?.results?.[0]?.id;
	const reply = await server.rest('GET', `/executions/${newest}`);
	const { parse } = require(path.join(install.dir, 'node_modules', 'flatted'));
	return parse(reply.json.data.data).resultData.runData[NODE].at(-1).data.main[0];
}

module.exports = { operatorCases };
