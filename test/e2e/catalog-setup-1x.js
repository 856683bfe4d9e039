#!/usr/bin/env node
// @ts-check
'use strict';

// The catalog pair set up in n8n 1.x's editor (1.123.81, the last 1.x release) as
// docs/large-catalogues.md says for 1.x, then run: not part of `npm test`, which runs 2.x only;
// run it by hand (`node test/e2e/catalog-setup-1x.js`, which installs 1.123.81 into the cache
// once). 1.x's Data Table node has no Table → Create and no table found by name, so the operator
// makes both tables from the CSV files (Create data table → Import CSV, a name typed for each),
// imports each example from the workflow's "…" menu, deletes the two Table nodes and picks the
// table from the list in every other Data Table node. The check: picking loses no value of any
// node, nothing is left marked as needing something once the README's credentials and shop are
// set, each workflow activates, a submit run submits every product, a table picked again after
// reopening the workflow loses no value, a collect sweep marks every row done, a second submit
// run says nothing was new having read the store once, and the run state is released.
// n8n 1.x runs with its task runners on (N8N_RUNNERS_ENABLED=true), as the page says.

const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./lib/config');
const { runOnPins, runSuite } = require('./lib/suite');
const { startSimulator } = require('./lib/simulator');
const { withN8nServer } = require('./lib/n8n-server');
const { installPackage } = require('./install-package');
const { openNode, signIn } = require('./lib/editor');
const setup = require('./catalog-setup-test');

const VERSION = '1.123.81';
const TABLES = { catalogue_tasks: 'catalogue_tasks.csv', catalogue_runs: 'catalogue_runs.csv' };

/** @typedef {import('playwright-core').Page} Page */

/** Overview → Data tables → Create data table → Import CSV, a name typed, the columns as read. @param {Page} page @param {string} url @param {import('./catalog-setup-test').Snap} snap @param {string} name @param {string} file */
async function createTableFromCsv(page, url, snap, name, file) {
	await page.goto(`${url}/home/datatables`);
	await page.locator('[data-test-id="add-resource-dataTable"]').first().click();
	await page.locator('[data-test-id="data-table-name-input-select"]').fill(name);
	await page.locator('[data-test-id="import-csv-option"]').click();
	const dialog = page.locator('[role="dialog"]:visible');
	await dialog.locator('input[type="file"]').setInputFiles(path.join(REPO_ROOT, 'examples', file));
	await page.locator('[data-test-id="proceed-from-select-button"]').click();
	await page.getByText('Set data table columns').waitFor();
	await snap(`${name} columns from the CSV`);
	await dialog.getByRole('button', { name: 'Create' }).click();
	await dialog.waitFor({ state: 'hidden' });
}

/** The workflow's "…" menu → Import from File…, then saved (1.x lists tables only in a saved workflow). @param {Page} page @param {string} url @param {string} file */
async function importFromFile(page, url, file) {
	await page.goto(`${url}/workflow/new`);
	await page.locator('[data-test-id="canvas-wrapper"]').waitFor();
	await page.locator('[data-test-id="workflow-menu"]').click();
	const chooser = page.waitForEvent('filechooser');
	await page.locator('[data-test-id="workflow-menu-item-import-from-file"]').click();
	await (await chooser).setFiles(file);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await save(page);
	await page.waitForURL(/\/workflow\/(?!new$)[A-Za-z0-9]+$/);
	return String(new URL(page.url()).pathname.split('/').pop());
}

/** @param {Page} page */
async function save(page) {
	await page.keyboard.press('Control+s');
	await page.locator('[data-test-id="workflow-save-button"]', { hasText: 'Saved' }).waitFor();
}

/**
 * The header's Inactive/Active switch, until n8n says the workflow is active, and its note on what
 * the trigger now does read ("Got it").
 * @param {Page} page @param {import('./lib/n8n-server').N8nServer} server @param {string} id
 */
async function activate(page, server, id) {
	await page.locator('[data-test-id="workflow-activate-switch"]').click();
	await setup.waitUntil(`n8n to say workflow ${id} is active`, async () =>
		(await server.rest('GET', `/workflows/${id}`)).json?.data?.active ? true : undefined,
	);
	const gotIt = page.getByRole('button', { name: 'Got it' });
	await gotIt.click();
	await gotIt.waitFor({ state: 'hidden' });
}

/** @param {Page} page @param {string} name */
async function deleteNode(page, name) {
	const node = page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
	await node.click();
	await page.keyboard.press('Delete');
	await node.waitFor({ state: 'detached' });
}

/** Data table → From list → the table. @param {Page} page @param {string} node @param {string} table */
async function pickTable(page, node, table) {
	await openNode(page, node);
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="rlc-mode-selector"]').first().click();
	await page
		.locator('.el-select-dropdown__item:visible, [role="option"]:visible')
		.filter({ hasText: 'From list' })
		.first()
		.click();
	await ndv.locator('[data-test-id="rlc-input"]').first().click();
	await page
		.locator('[data-test-id="rlc-item"]:visible')
		.filter({ hasText: table })
		.first()
		.click();
	// On a busy machine the list can close before the editor took the choice: closed only once
	// the node shows the table.
	const input = ndv.locator('[data-test-id="rlc-input"]').first();
	await setup.waitUntil(`${node} to show the table ${table}`, async () =>
		(await input.inputValue()) === table ? true : undefined,
	);
	await setup.closeNdv(page);
}

/**
 * Each Data Table node as n8n saved it: its table picked from the list, its values and conditions
 * as imported.
 * @param {import('./lib/n8n-server').N8nServer} server @param {string} id @param {any[]} rowNodes
 */
async function assertSavedAsImported(server, id, rowNodes) {
	const saved = (await server.rest('GET', `/workflows/${id}`)).json.data.nodes;
	const savedOf = (/** @type {any} */ node) =>
		saved.find((/** @type {any} */ n) => n.name === node.name)?.parameters ?? {};
	// n8n leaves a condition's default (equals) out of what it saves.
	const conditions = (/** @type {any} */ p) =>
		(p.filters?.conditions ?? []).map((/** @type {any} */ c) => ({ condition: 'eq', ...c }));
	const same = (/** @type {unknown} */ a, /** @type {unknown} */ b) =>
		JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
	const changed = rowNodes.filter((node) => {
		const now = savedOf(node);
		return !(
			now.dataTableId?.mode === 'list' &&
			same(now.columns?.value, node.parameters.columns?.value) &&
			same(conditions(now), conditions(node.parameters))
		);
	});
	if (changed.length === 0) return;
	const as = (/** @type {any} */ node) => {
		const p = savedOf(node);
		return `${node.name} (${JSON.stringify({ table: p.dataTableId, columns: p.columns?.value, filters: p.filters })})`;
	};
	throw new Error(`saved without its picked table or with other values: ${changed.map(as)}`);
}

/** @param {string} name */
const examplePath = (name) => path.join(REPO_ROOT, 'examples', `${name}.json`);

/** An example's Data Table nodes, as the file holds them. @param {string} name @returns {any[]} */
const dataTableNodes = (name) =>
	JSON.parse(fs.readFileSync(examplePath(name), 'utf8')).nodes.filter(
		(/** @type {any} */ n) => n.type === 'n8n-nodes-base.dataTable',
	);

/**
 * One example as the 1.x steps say: imported, its Table nodes deleted, every table picked, the
 * README's credentials (and `typed`); then nothing may need anything, and every Data Table node
 * must still hold the values and conditions it was imported with.
 * @param {Page} page @param {import('./lib/n8n-server').N8nServer} server
 * @param {import('./catalog-setup-test').Snap} snap @param {string} name
 * @param {Record<string, string[]>} credentialNodes @param {() => Promise<void>} [typed]
 */
async function setUp(page, server, snap, name, credentialNodes, typed) {
	const id = await importFromFile(page, server.url, examplePath(name));
	const tableNodes = dataTableNodes(name);
	for (const node of tableNodes.filter((/** @type {any} */ n) => n.parameters.resource === 'table'))
		await deleteNode(page, node.name);
	const rowNodes = tableNodes.filter((/** @type {any} */ n) => n.parameters.resource === 'row');
	for (const node of rowNodes) await pickTable(page, node.name, node.parameters.dataTableId.value);
	await snap(`${name} tables picked`);
	for (const [credential, nodes] of Object.entries(credentialNodes))
		for (const node of nodes) await setup.chooseCredential(page, snap, node, credential);
	await typed?.();
	await save(page);
	const left = await setup.nodesWithIssues(page);
	if (left.length) throw new Error(`after the 1.x steps, ${left} of ${name} still need something`);
	await assertSavedAsImported(server, id, rowNodes);
	await activate(page, server, id);
	await snap(`${name} set up`);
	return id;
}

/**
 * As the 1.x steps say for a pick changed after a run: the workflow reopened (with the run's data
 * on screen, the editor would empty the values of a node whose table changes), a wrong table
 * picked in Take the run and then the right one, and every Data Table node still as imported.
 * @param {Page} page @param {import('./lib/n8n-server').N8nServer} server @param {string} id
 */
async function repickAfterReopening(page, server, id) {
	const rowNodes = dataTableNodes('catalogue-submit').filter(
		(/** @type {any} */ n) => n.parameters.resource === 'row',
	);
	await page.goto(`${server.url}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await pickTable(page, 'Take the run', 'catalogue_tasks');
	await pickTable(page, 'Take the run', 'catalogue_runs');
	await save(page);
	await assertSavedAsImported(server, id, rowNodes);
}

/**
 * @param {Page} page @param {import('./lib/n8n-server').N8nServer} server @param {string} n8nDir
 * @param {import('./lib/simulator').RunningSimulator} sim
 * @param {Awaited<ReturnType<typeof import('./lib/shop').startShop>>} shop @param {import('./catalog-setup-test').Snap} snap
 */
async function setUpAndRun(page, server, n8nDir, sim, shop, snap) {
	const steps = setup.readmeSetUp();
	await signIn(page, server.url);
	for (const [name, file] of Object.entries(TABLES))
		await createTableFromCsv(page, server.url, snap, name, file);
	const submitId = await setUp(
		page,
		server,
		snap,
		'catalogue-submit',
		{
			[setup.CREDENTIALS.productImage]: steps.submit.productImage,
			[setup.CREDENTIALS.shop]: steps.submit.shop,
		},
		() => setup.setShopUrl(page, snap, shop.url),
	);
	const first = await setup.execute(page, server, n8nDir, submitId);
	const did = setup.lastOutput(first.runData, 'What this run did');
	if (first.status !== 'success' || did?.submitted !== setup.PRODUCTS)
		throw new Error(`the first submit run ended ${first.status}: ${JSON.stringify(did)}`);
	await repickAfterReopening(page, server, submitId);

	const collectId = await setUp(page, server, snap, 'catalogue-collect', {
		[setup.CREDENTIALS.productImage]: steps.collect.productImage,
	});
	const sweep = await setup.execute(page, server, n8nDir, collectId);
	if (sweep.status !== 'success') throw new Error(`the collect sweep ended ${sweep.status}`);
	const rows = await setup.tableRows(server, 'catalogue_tasks');
	const done = rows.filter((r) => r.status === 'done' && r.images_downloaded >= 1);
	if (done.length !== setup.PRODUCTS || (await sim.tasks()).length !== setup.PRODUCTS)
		throw new Error(`${done.length} of ${setup.PRODUCTS} rows done: ${JSON.stringify(rows)}`);

	await page.goto(`${server.url}/workflow/${submitId}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	const readsBefore = shop.reads();
	const again = await setup.execute(page, server, n8nDir, submitId);
	const result = setup.lastOutput(again.runData, 'What this run did')?.result ?? '';
	if (again.status !== 'success' || !result.startsWith('Nothing new'))
		throw new Error(`the second submit run ended ${again.status}: ${result}`);
	if (shop.reads() - readsBefore !== 1)
		throw new Error(`the second submit run read the store ${shop.reads() - readsBefore} times`);
	const [state] = await setup.tableRows(server, 'catalogue_runs');
	if (state?.holder !== '' || state?.lease_until !== 0)
		throw new Error(`the run state was not released: ${JSON.stringify(state)}`);
}

/** @param {import('./lib/suite').Pin} pin @param {import('./lib/simulator').RunningSimulator} sim */
async function onePin({ install, tarball, userFolder }, sim) {
	await installPackage({ node: install.node, userFolder, tarball });
	const env = { GENERIC_TIMEZONE: setup.middayZone(), N8N_RUNNERS_ENABLED: 'true' };
	return withN8nServer({ install, userFolder, env }, (server) =>
		setup.runCatalogSetUp(
			{ server, install, userFolder, sim },
			'the pair set up as the 1.x steps say runs a submit run and a collect sweep',
			setUpAndRun,
		),
	);
}

runSuite('catalog 1.x set-up', () =>
	runOnPins(
		{
			prefix: 'product-image-catalog-1x',
			versions: [VERSION],
			setUp: async () => {
				const sim = await startSimulator();
				return { context: sim, stop: () => sim.stop() };
			},
		},
		onePin,
	),
);
