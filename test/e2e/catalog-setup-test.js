#!/usr/bin/env node
// @ts-check
'use strict';

// The catalog night as an operator sets it up from the README, in the real editor (headless
// Chromium, each pinned n8n lib/matrix.js gives the suite, with the packed package): both examples
// imported through the workflow's "…" menu → Import → From file, the credential chosen in each node
// the README names, the shop's address in Settings → shopUrl, each published, and nothing else
// typed. Then one submit run from the Execute button against the simulator and a stand-in store
// (Shopify's product list, lib/shop.js): it creates both Data Tables and submits every product;
// one collect sweep marks every row done; a second submit run says nothing was new, having read
// the store once; a third, after the run state's lease_until was emptied, ends in Stop: what to
// set, saying to set it to 0. The page is saved at each step (catalog-setup-NN-<step>.png in the
// user folder, kept with the work folder after a failure or with PRODUCT_IMAGE_E2E_KEEP=1); a wait
// that runs out names what it waited for, and the page is saved as it then was.
//
// It shares its n8n start with the other server suites (lib/server-suites.js), a start set to its
// clock: alone, `node test/e2e/catalog-setup-test.js`. `--n8n 2.41.0` narrows the n8n versions.
// Environment: PRODUCT_IMAGE_E2E_SKIP_BUILD=1, PRODUCT_IMAGE_E2E_KEEP=1, as for run.js.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./lib/config');
const { runSuite } = require('./lib/suite');
const { runServerSuites } = require('./lib/server-suites');
const { whatFailed, LOADED_MACHINE_MS, LOADED_RUN_MS } = require('./lib/waits');
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
	const step = (
		readme.match(/\n2\. In \*\*Catalogue: submit[^\n]*(?:\n {3}[^\n]*)*/)?.[0] ?? ''
	).replace(/\s+/g, ' ');
	const [submitPart, collectPart = ''] = step.split('In **Catalogue: collect');
	/** @param {string} text @param {RegExp} credential */
	const named = (text, credential) =>
		[...(text.match(credential)?.[0] ?? '').matchAll(/\*\*([^*]+)\*\*/g)].map((m) => m[1]);
	return {
		submit: {
			productImage: named(submitPart, /Product Image credential in[^;.]*/),
			shop: named(submitPart, /Shopify access token credential in[^;.]*/),
		},
		collect: { productImage: named(collectPart, /Product Image credential in[^;.]*/) },
	};
}

/**
 * Asks until `check` gives something, or the limit for one wait has passed.
 * @template T @param {string} what what it waits for, named when it runs out
 * @param {() => Promise<T | undefined>} check @param {number} [limit]
 * @returns {Promise<T>}
 */
async function waitUntil(what, check, limit = LOADED_MACHINE_MS) {
	const deadline = Date.now() + limit;
	for (;;) {
		const found = await check();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`waited ${limit / 1000} s for ${what}`);
		await new Promise((r) => setTimeout(r, 1000));
	}
}

/** @param {import('playwright-core').Page} page @param {string} url @param {string} file @returns {Promise<string>} the new workflow's id */
async function importFromFile(page, url, file) {
	await page.goto(`${url}/workflow/new`);
	await page.locator('[data-test-id="canvas-wrapper"]').waitFor();
	await page.locator('[data-test-id="workflow-menu"]').click();
	await page.locator('[data-test-id="workflow-menu-item-import"]').hover();
	const chooser = page.waitForEvent('filechooser');
	await page.locator('[data-test-id="workflow-menu-item-import-from-file"]').click();
	await (await chooser).setFiles(file);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.waitForURL(/\/workflow\/[A-Za-z0-9]+$/);
	return String(new URL(page.url()).pathname.split('/').pop());
}

/** The nodes the canvas marks as needing something. @param {import('playwright-core').Page} page */
function nodesWithIssues(page) {
	return page
		.locator('[data-test-id="canvas-node"]', { has: page.locator('[data-test-id="node-issues"]') })
		.evaluateAll((nodes) => nodes.map((n) => String(n.getAttribute('data-node-name'))).sort());
}

/** The node's close button (n8n 2.x), or its "Back to canvas" (1.x). @param {import('playwright-core').Page} page */
async function closeNdv(page) {
	const ndv = page.locator('[data-test-id="ndv"]');
	await page
		.locator('[data-test-id="ndv-close-button"], [data-test-id="back-to-canvas"]')
		.first()
		.click();
	await ndv.waitFor({ state: 'hidden' });
}

/**
 * The page as the operator sees it at a step, saved in the user folder.
 * @typedef {(step: string) => Promise<void>} Snap
 * @param {import('playwright-core').Page} page @param {string} folder @returns {Snap}
 */
function pictures(page, folder) {
	let taken = 0;
	return async (step) => {
		info(`catalog set-up: ${step}`);
		taken += 1;
		const name = `catalog-setup-${String(taken).padStart(2, '0')}-${step.replace(/[^A-Za-z0-9]+/g, '-')}.png`;
		await page.screenshot({ path: path.join(folder, name) }).catch(() => {});
	};
}

/** @param {import('playwright-core').Page} page @param {Snap} snap @param {string} node @param {string} credential */
async function chooseCredential(page, snap, node, credential) {
	await openNode(page, node);
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="node-credentials-select"]').click();
	await snap(`${node} credential`);
	await page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.filter({ hasText: credential })
		.first()
		.click();
	await closeNdv(page);
}

/** Settings → shopUrl, the one value the README has an operator type. @param {import('playwright-core').Page} page @param {Snap} snap @param {string} value */
async function setShopUrl(page, snap, value) {
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
	await snap('Settings shopUrl');
	await closeNdv(page);
}

/**
 * The README's last step: Publish, from the editor's header and its dialog, until n8n says the
 * workflow is published and the editor's note on what its trigger now does is read ("Got it").
 * @param {import('playwright-core').Page} page @param {import('./lib/n8n-server').N8nServer} server @param {string} id
 */
async function publish(page, server, id) {
	await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
	await page.locator('[data-test-id="workflow-publish-button"]').click();
	await waitUntil(`n8n to say workflow ${id} is published`, async () => {
		const workflow = (await server.rest('GET', `/workflows/${id}`)).json?.data;
		return workflow?.active || workflow?.activeVersionId ? true : undefined;
	});
	const gotIt = page.getByRole('button', { name: 'Got it' });
	await gotIt.click();
	await gotIt.waitFor({ state: 'hidden' });
}

/** The newest execution of a workflow, as n8n lists it. @param {import('./lib/n8n-server').N8nServer} server @param {string} workflowId */
async function newestExecution(server, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const reply = await server.rest('GET', `/executions?filter=${filter}&limit=1`);
	return reply.json?.data?.results?.[0];
}

/**
 * Runs the open workflow from its Execute button and waits for n8n to list its execution as
 * finished.
 * @param {import('playwright-core').Page} page
 * @param {import('./lib/n8n-server').N8nServer} server @param {string} n8nDir @param {string} workflowId
 * @returns {Promise<{status: string, runData: Record<string, any[]>}>}
 */
async function execute(page, server, n8nDir, workflowId) {
	const before = Number((await newestExecution(server, workflowId))?.id ?? 0);
	await page.locator('[data-test-id="execute-workflow-button"]').click();
	const { id } = await waitUntil(
		`an execution of workflow ${workflowId} after execution ${before}, started by the Execute button, to finish`,
		async () => {
			const newest = await newestExecution(server, workflowId);
			const done = newest && !['new', 'running', 'waiting'].includes(newest.status);
			return done && Number(newest.id) > before ? newest : undefined;
		},
		LOADED_RUN_MS,
	);
	const execution = (await server.rest('GET', `/executions/${id}`)).json.data;
	// The execution's data as n8n stores it, read with n8n's own reader (flatted).
	const { parse } = require(path.join(n8nDir, 'node_modules', 'flatted'));
	return { status: execution.status, runData: parse(execution.data).resultData.runData };
}

/** The last item a node put out in a run. @param {Record<string, any[]>} runData @param {string} node */
const lastOutput = (runData, node) => {
	const runs = runData[node] ?? [];
	return runs[runs.length - 1]?.data?.main?.[0]?.[0]?.json;
};

/** A Data Table's REST route, by its name. @param {import('./lib/n8n-server').N8nServer} server @param {string} name */
async function tableRoute(server, name) {
	const project = (await server.rest('GET', '/projects/personal')).json.data;
	const tables = (await server.rest('GET', `/projects/${project.id}/data-tables`)).json.data.data;
	const table = tables.find((/** @type {any} */ t) => t.name === name);
	if (!table) throw new Error(`no Data Table ${name}`);
	return `/projects/${project.id}/data-tables/${table.id}`;
}

/** The rows of a Data Table, by its name. @param {import('./lib/n8n-server').N8nServer} server @param {string} name */
async function tableRows(server, name) {
	const rows = await server.rest('GET', `${await tableRoute(server, name)}/rows?take=1000&skip=0`);
	return /** @type {Record<string, any>[]} */ (rows.json.data.data);
}

/**
 * The run state's lease_until emptied, as a person editing the row in the table's view may leave
 * it: the next submit run takes nothing and submits nothing, and ends in Stop: what to set, saying
 * which value to set.
 * @param {import('playwright-core').Page} page @param {import('./lib/n8n-server').N8nServer} server
 * @param {string} n8nDir @param {import('./lib/simulator').RunningSimulator} sim @param {string} submitId
 */
async function emptiedRunState(page, server, n8nDir, sim, submitId) {
	await server.rest('PATCH', `${await tableRoute(server, 'catalogue_runs')}/rows`, {
		filter: { type: 'and', filters: [{ columnName: 'name', condition: 'eq', value: 'submit' }] },
		data: { lease_until: null },
	});
	const tasksBefore = (await sim.tasks()).length;
	const run = await execute(page, server, n8nDir, submitId);
	const stops = run.runData['Stop: what to set'] ?? [];
	const message = String(stops[stops.length - 1]?.error?.message ?? '');
	if (
		run.status !== 'error' ||
		!message.includes('has lease_until null, not a number: set it to 0') ||
		run.runData['Take the run'] ||
		(await sim.tasks()).length !== tasksBefore
	)
		throw new Error(
			`the submit run after lease_until was emptied ended ${run.status} at ${Object.keys(run.runData).pop()}: ${message}`,
		);
}

/**
 * Imports one example and sets it up as the README says: the credentials in the nodes it names
 * (and no node left needing anything), the shop where it says, then Publish.
 * @param {import('playwright-core').Page} page @param {import('./lib/n8n-server').N8nServer} server
 * @param {Snap} snap @param {string} name @param {Record<string, string[]>} credentialNodes credential → nodes
 * @param {() => Promise<void>} [typed] what the README has the operator type
 */
async function setUp(page, server, snap, name, credentialNodes, typed) {
	await snap(`before importing ${name}`);
	const id = await importFromFile(
		page,
		server.url,
		path.join(REPO_ROOT, 'examples', `${name}.json`),
	);
	await snap(`${name} imported`);
	const named = Object.values(credentialNodes).flat();
	const unnamed = (await nodesWithIssues(page)).filter((n) => !named.includes(n));
	if (unnamed.length) throw new Error(`the README does not name ${unnamed} of ${name}`);
	for (const [credential, nodes] of Object.entries(credentialNodes))
		for (const node of nodes) await chooseCredential(page, snap, node, credential);
	await typed?.();
	const left = await nodesWithIssues(page);
	if (left.length)
		throw new Error(`after the README's steps, ${left} of ${name} still need something`);
	await publish(page, server, id);
	await snap(`${name} published`);
	return id;
}

/**
 * @param {import('playwright-core').Page} page @param {import('./lib/n8n-server').N8nServer} server
 * @param {string} n8nDir @param {import('./lib/simulator').RunningSimulator} sim
 * @param {Awaited<ReturnType<typeof startShop>>} shop @param {Snap} snap
 */
async function setUpAndRun(page, server, n8nDir, sim, shop, snap) {
	const steps = readmeSetUp();
	await signIn(page, server.url);

	const submitId = await setUp(
		page,
		server,
		snap,
		SUBMIT,
		{
			[CREDENTIALS.productImage]: steps.submit.productImage,
			[CREDENTIALS.shop]: steps.submit.shop,
		},
		() => setShopUrl(page, snap, shop.url),
	);
	const first = await execute(page, server, n8nDir, submitId);
	await snap(`${SUBMIT} run`);
	const did = lastOutput(first.runData, 'What this run did');
	if (first.status !== 'success' || did?.submitted !== PRODUCTS)
		throw new Error(`the first submit run ended ${first.status}: ${JSON.stringify(did)}`);

	const collectId = await setUp(page, server, snap, COLLECT, {
		[CREDENTIALS.productImage]: steps.collect.productImage,
	});
	const sweep = await execute(page, server, n8nDir, collectId);
	await snap(`${COLLECT} run`);
	if (sweep.status !== 'success') throw new Error(`the collect sweep ended ${sweep.status}`);
	const rows = await tableRows(server, 'catalogue_tasks');
	const done = rows.filter((r) => r.status === 'done' && r.images_downloaded >= 1);
	const tasks = await sim.tasks();
	if (done.length !== PRODUCTS || tasks.length !== PRODUCTS)
		throw new Error(
			`${done.length} of ${PRODUCTS} rows done, ${tasks.length} tasks at the service: ${JSON.stringify(rows.map((r) => r.status))}`,
		);

	await openWorkflow(page, server.url, submitId);
	const readsBefore = shop.reads();
	const again = await execute(page, server, n8nDir, submitId);
	await snap(`${SUBMIT} second run`);
	const result = lastOutput(again.runData, 'What this run did')?.result ?? '';
	if (again.status !== 'success' || !result.startsWith('Nothing new'))
		throw new Error(`the second submit run ended ${again.status}: ${result}`);
	if (shop.reads() - readsBefore !== 1)
		throw new Error(`the second submit run read the store ${shop.reads() - readsBefore} times`);

	await emptiedRunState(page, server, n8nDir, sim, submitId);
	await snap(`${SUBMIT} run with lease_until emptied`);
}

/**
 * n8n's time zone with its clock near midday: the submit schedule's night (0:00 to 6:59) is hours
 * away once it is published, so the only runs are the ones started from the editor.
 */
function middayZone(now = new Date()) {
	const offset = ((12 - now.getUTCHours() + 36) % 24) - 12;
	return offset === 0 ? 'Etc/UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

/**
 * @typedef {(page: import('playwright-core').Page, server: import('./lib/n8n-server').N8nServer,
 *   n8nDir: string, sim: import('./lib/simulator').RunningSimulator,
 *   shop: Awaited<ReturnType<typeof startShop>>, snap: Snap) => Promise<void>} Flow
 */

/**
 * On a running n8n: the two credentials an operator already has, the stand-in store, the browser
 * (each stopped whatever happens), then `flow`; one line says whether `name` held.
 * @param {Pick<import('./lib/server-suites').SuiteContext, 'server' | 'install' | 'userFolder' | 'sim'>} ctx
 * @param {string} name @param {Flow} flow
 */
async function runCatalogSetUp({ server, install, userFolder, sim }, name, flow) {
	await sim.reset();
	await sim.configure({ taskDurationMs: 1000, imagesPerTask: 1 });
	const shop = await startShop({ products: PRODUCTS });
	const credential = (/** @type {object} */ body) => server.rest('POST', '/credentials', body);
	const problem = await (async () => {
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
		info(`n8n ${install.version}: catalog set-up at ${server.url}`);
		const browser = await openBrowser({ width: 1440, height: 900 });
		try {
			const snap = pictures(browser.page, userFolder);
			await flow(browser.page, server, install.dir, sim, shop, snap);
			return undefined;
		} catch (err) {
			const picture = path.join(userFolder, 'catalog-setup.png');
			await browser.page.screenshot({ path: picture }).catch(() => {});
			return `${whatFailed(err)} (the page then: ${picture})`;
		} finally {
			await browser.close();
		}
	})().finally(() => shop.stop());
	console.log(
		`${problem ? 'FAIL' : 'PASS'} n8n ${install.version} catalog: ${name}${problem ? `\n      ${problem}` : ''}`,
	);
	return { passed: problem ? 0 : 1, failed: problem ? 1 : 0 };
}

/** @type {import('./lib/server-suites').ServerSuite} */
const suite = {
	title: 'the catalog pair set up in the editor as the README says',
	env: () => ({ GENERIC_TIMEZONE: middayZone() }),
	run: (ctx) =>
		runCatalogSetUp(
			ctx,
			'the catalog pair set up as the README says runs a submit run and a collect sweep',
			setUpAndRun,
		),
};

if (require.main === module) runSuite('catalog set-up suite', () => runServerSuites(['catalog']));

module.exports = {
	suite,
	runCatalogSetUp,
	CREDENTIALS,
	PRODUCTS,
	readmeSetUp,
	waitUntil,
	nodesWithIssues,
	closeNdv,
	chooseCredential,
	setShopUrl,
	execute,
	lastOutput,
	tableRows,
	middayZone,
};
