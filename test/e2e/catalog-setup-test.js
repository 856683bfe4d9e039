#!/usr/bin/env node
// @ts-check
'use strict';

// The catalog night as an operator sets it up from the README, in the real editor (headless
// Chromium, n8n 2.41 with the packed package): both examples imported through the workflow's
// "…" menu → Import → From file, the credential chosen in each node the README names, the shop's
// address in Settings → shopUrl, and nothing else typed. Then one submit run from the Execute
// button against the simulator and a stand-in store (Shopify's product list, lib/shop.js): it
// creates both Data Tables and submits every product; one collect sweep marks every row done; a
// second submit run says nothing was new, having read the store once. It shares its n8n start
// with the other server suites (lib/server-suites.js): alone, `node test/e2e/catalog-setup-test.js`.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./lib/config');
const { runSuite } = require('./lib/suite');
const { runServerSuites } = require('./lib/server-suites');
const { whatFailed, LOADED_RUN_MS } = require('./lib/waits');
const { openBrowser } = require('./lib/browser');
const { openNode, openWorkflow, signIn } = require('./lib/editor');
const { startShop } = require('./lib/shop');
const { info } = require('./lib/log');

const PRODUCTS = 6;
const SUBMIT = 'catalogue-submit';
const COLLECT = 'catalogue-collect';
const CREDENTIALS = { productImage: 'My Product Image account', shop: 'My Shopify store' };

/**
 * The README's set-up steps: the nodes it names for each credential, read from its words.
 * @returns {{submit: {productImage: string[], shop: string[]}, collect: {productImage: string[]}}}
 */
function readmeSetUp() {
	const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
	const step = readme.match(/\n2\. In \*\*Catalogue: submit[^\n]*(?:\n {3}[^\n]*)*/)?.[0] ?? '';
	const [submitPart, collectPart = ''] = step.split('In **Catalogue: collect');
	/** @param {string} text @param {RegExp} credential */
	const named = (text, credential) =>
		[...(text.match(credential)?.[0] ?? '').matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1].replace(/\s+/g, ' '));
	return {
		submit: {
			productImage: named(submitPart, /Product Image credential in[^;.]*/),
			shop: named(submitPart, /Shopify access token credential in[^;.]*/),
		},
		collect: { productImage: named(collectPart, /Product Image credential in[^;.]*/) },
	};
}

/** @param {import('playwright-core').Page} page @param {string} file @returns {Promise<string>} the new workflow's id */
async function importFromFile(page, url, file) {
	await page.goto(`${url}/workflow/new`);
	await page.locator('[data-test-id="canvas-wrapper"]').waitFor();
	await page.locator('[data-test-id="workflow-menu"]').click();
	await page.locator('[data-test-id="workflow-menu-item-import"]').hover();
	const chooser = page.waitForEvent('filechooser');
	await page.locator('[data-test-id="workflow-menu-item-import-from-file"]').click();
	await (await chooser).setFiles(file);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.waitForURL(/\/workflow\/[A-Za-z0-9]+/);
	return String(new URL(page.url()).pathname.split('/').pop());
}

/** The nodes the canvas marks as needing something. @param {import('playwright-core').Page} page */
function nodesWithIssues(page) {
	return page
		.locator('[data-test-id="canvas-node"]', { has: page.locator('[data-test-id="node-issues"]') })
		.evaluateAll((nodes) => nodes.map((n) => String(n.getAttribute('data-node-name'))).sort());
}

/** @param {import('playwright-core').Page} page @param {string} node @param {string} credential */
async function chooseCredential(page, node, credential) {
	await openNode(page, node);
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="node-credentials-select"]').click();
	await page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.filter({ hasText: credential })
		.first()
		.click();
	await closeNdv(page);
}

/** @param {import('playwright-core').Page} page */
async function closeNdv(page) {
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="ndv-close-button"]').click();
	await ndv.waitFor({ state: 'hidden' });
}

/** Settings → shopUrl, the one value the README has an operator type. @param {import('playwright-core').Page} page @param {string} value */
async function setShopUrl(page, value) {
	await openNode(page, 'Settings');
	const assignments = page.locator('[data-test-id="ndv"] [data-test-id="assignment"]');
	await assignments.first().waitFor();
	for (let i = 0; i < (await assignments.count()); i++) {
		const name = await assignments
			.nth(i)
			.locator('[data-test-id="assignment-name"] input')
			.inputValue();
		if (name !== 'shopUrl') continue;
		const input = assignments.nth(i).locator('[data-test-id="assignment-value"] input');
		await input.fill(value);
		await input.blur();
	}
	await closeNdv(page);
}

/**
 * Runs the open workflow from its Execute button and waits for its execution to finish.
 * @param {import('playwright-core').Page} page
 * @param {Pick<import('./lib/server-suites').SuiteContext, 'server' | 'install'>} ctx
 * @returns {Promise<{status: string, runData: Record<string, any[]>}>}
 */
async function execute(page, { server, install }) {
	const started = page.waitForResponse(
		(r) => /\/rest\/workflows\/[^/]+\/run/.test(r.url()) && r.request().method() === 'POST',
	);
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	const id = (await (await started).json())?.data?.executionId;
	if (!id) throw new Error('the Execute button started no execution');
	const deadline = Date.now() + LOADED_RUN_MS;
	for (;;) {
		const reply = await server.rest('GET', `/executions/${id}`);
		const execution = reply.json?.data;
		if (execution && !['new', 'running', 'waiting'].includes(execution.status)) {
			// The execution's data as n8n stores it, read with n8n's own reader (flatted).
			const { parse } = require(require.resolve('flatted', { paths: [install.dir] }));
			return { status: execution.status, runData: parse(execution.data).resultData.runData };
		}
		if (Date.now() > deadline) throw new Error(`execution ${id} did not finish`);
		await new Promise((r) => setTimeout(r, 1000));
	}
}

/** The last item a node put out in a run. @param {Record<string, any[]>} runData @param {string} node */
const lastOutput = (runData, node) => {
	const runs = runData[node] ?? [];
	return runs[runs.length - 1]?.data?.main?.[0]?.[0]?.json;
};

/** The rows of a Data Table, by its name. @param {import('./lib/n8n-server').N8nServer} server @param {string} name */
async function tableRows(server, name) {
	const project = (await server.rest('GET', '/projects/personal')).json.data;
	const tables = (await server.rest('GET', `/projects/${project.id}/data-tables`)).json.data.data;
	const table = tables.find((/** @type {any} */ t) => t.name === name);
	if (!table) throw new Error(`no Data Table ${name}`);
	const rows = await server.rest(
		'GET',
		`/projects/${project.id}/data-tables/${table.id}/rows?take=1000&skip=0`,
	);
	return /** @type {Record<string, any>[]} */ (rows.json.data.data);
}

/**
 * @param {import('playwright-core').Page} page
 * @param {import('./lib/server-suites').SuiteContext} ctx
 * @param {Awaited<ReturnType<typeof startShop>>} shop
 */
async function setUpAndRun(page, ctx, shop) {
	const { server, sim } = ctx;
	const steps = readmeSetUp();
	const url = server.url;
	const example = (/** @type {string} */ name) => path.join(REPO_ROOT, 'examples', `${name}.json`);
	await signIn(page, url);

	const submitId = await importFromFile(page, url, example(SUBMIT));
	const needing = await nodesWithIssues(page);
	const named = [...steps.submit.productImage, ...steps.submit.shop];
	const unnamed = needing.filter((n) => !named.includes(n));
	if (unnamed.length) throw new Error(`the README does not name ${unnamed} of the submit example`);
	for (const node of steps.submit.productImage)
		await chooseCredential(page, node, CREDENTIALS.productImage);
	for (const node of steps.submit.shop) await chooseCredential(page, node, CREDENTIALS.shop);
	await setShopUrl(page, shop.url);
	const left = await nodesWithIssues(page);
	if (left.length) throw new Error(`after the README's steps, ${left} still need something`);
	const first = await execute(page, ctx);
	const did = lastOutput(first.runData, 'What this run did');
	if (first.status !== 'success' || did?.submitted !== PRODUCTS)
		throw new Error(`the first submit run ended ${first.status}: ${JSON.stringify(did)}`);

	await importFromFile(page, url, example(COLLECT));
	for (const node of steps.collect.productImage)
		await chooseCredential(page, node, CREDENTIALS.productImage);
	const sweep = await execute(page, ctx);
	if (sweep.status !== 'success') throw new Error(`the collect sweep ended ${sweep.status}`);
	const rows = await tableRows(server, 'catalogue_tasks');
	const done = rows.filter((r) => r.status === 'done' && r.images_downloaded >= 1);
	const tasks = await sim.tasks();
	if (done.length !== PRODUCTS || tasks.length !== PRODUCTS)
		throw new Error(
			`${done.length} of ${PRODUCTS} rows done, ${tasks.length} tasks at the service: ${JSON.stringify(rows.map((r) => r.status))}`,
		);

	await openWorkflow(page, url, submitId);
	const readsBefore = shop.reads();
	const again = await execute(page, ctx);
	const result = lastOutput(again.runData, 'What this run did')?.result ?? '';
	if (again.status !== 'success' || !result.startsWith('Nothing new'))
		throw new Error(`the second submit run ended ${again.status}: ${result}`);
	if (shop.reads() - readsBefore !== 1)
		throw new Error(`the second submit run read the store ${shop.reads() - readsBefore} times`);
}

/** @param {import('./lib/server-suites').SuiteContext} ctx */
async function run(ctx) {
	const { server, sim, userFolder } = ctx;
	const name = 'the catalog pair set up as the README says runs a submit run and a collect sweep';
	await sim.reset();
	await sim.configure({ taskDurationMs: 1000, imagesPerTask: 1 });
	const shop = await startShop({ products: PRODUCTS });
	const credential = (/** @type {object} */ body) => server.rest('POST', '/credentials', body);
	await credential({
		name: CREDENTIALS.productImage,
		type: 'productImageApi',
		data: { baseUrl: sim.baseUrl, apiKey: sim.apiKey },
	});
	await credential({
		name: CREDENTIALS.shop,
		type: 'shopifyAccessTokenApi',
		data: { shopSubdomain: 'stand-in', accessToken: shop.token, appSecretKey: 'unused' },
	});
	info(`n8n ${server.version}: catalog set-up at ${server.url}`);
	const browser = await openBrowser({ width: 1440, height: 900 });
	const problem = await setUpAndRun(browser.page, ctx, shop).then(
		() => undefined,
		async (err) => {
			const picture = path.join(userFolder, 'catalog-setup.png');
			await browser.page.screenshot({ path: picture }).catch(() => {});
			return `${whatFailed(err)} (the page then: ${picture})`;
		},
	);
	await browser.close();
	await shop.stop();
	console.log(
		`${problem ? 'FAIL' : 'PASS'} n8n ${server.version} catalog: ${name}${problem ? `\n      ${problem}` : ''}`,
	);
	return { passed: problem ? 0 : 1, failed: problem ? 1 : 0 };
}

/** @type {import('./lib/server-suites').ServerSuite} */
const suite = { title: 'catalog night set up in the editor', run };

if (require.main === module) runSuite('catalog set-up suite', () => runServerSuites(['catalog']));

module.exports = { suite };
