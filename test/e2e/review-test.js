#!/usr/bin/env node
// @ts-check
'use strict';

// examples/review-before-billing.json as an operator runs it: published in a real n8n (`n8n
// start`, each pinned version lib/matrix.js names for this suite), started by a production
// webhook in place of its Manual Trigger, and both people's steps answered through n8n's own
// waiting forms (`/form-waiting/<execution>`, the page the person opens). Approved with a
// corrected fact: the plan is asked with the corrected description and every image leaves at its
// module's size. Rejected: the simulator sees no generation.
//
// `--n8n 2.41.0` narrows the versions. Environment: PRODUCT_IMAGE_E2E_SKIP_BUILD=1,
// PRODUCT_IMAGE_E2E_KEEP=1, PRODUCT_IMAGE_E2E_CACHE, as for run.js.

const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const path = require('node:path');
const { pinsOf } = require('./lib/matrix');
const {
	preparePackageAndN8n,
	prepareUserFolder,
	makeWorkRoot,
	finishWorkRoot,
	runSuite,
} = require('./lib/suite');
const { withN8nServer } = require('./lib/n8n-server');
const { listExamples, prepareWorkflow, stableId } = require('./lib/workflows');
const { readBinary, pngSize, itemBinary } = require('./lib/binary');
const { A_PLUS_SIMULATOR } = require('./lib/module-sizes');
const { addSecret, redact } = require('./lib/redact');
const { info } = require('./lib/log');
const { startSimulator } = require('../simulator');

const EXAMPLE = 'review-before-billing';
const WEBHOOK_PATH = 'review-before-billing';
const CORRECTED = 'recycled aluminium';

/** The example with a production webhook where its Manual Trigger is: how it runs unattended. */
function webhookCopy() {
	const example = listExamples().find((e) => e.name === EXAMPLE);
	if (!example) throw new Error(`examples/${EXAMPLE}.json not found`);
	const workflow = prepareWorkflow(example);
	workflow.id = stableId(`${EXAMPLE}-webhook`);
	workflow.nodes = workflow.nodes.map((/** @type {any} */ node) =>
		node.type === 'n8n-nodes-base.manualTrigger'
			? {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: crypto.randomUUID(),
					parameters: { httpMethod: 'POST', path: WEBHOOK_PATH, options: {} },
				}
			: node,
	);
	return workflow;
}

/**
 * Publishes the workflow as the editor's Publish button does, so its production webhook listens.
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {string} id
 */
async function publish(server, id) {
	const saved = await server.rest('GET', `/workflows/${id}`);
	const versionId = saved.json?.data?.versionId;
	const reply = await server.rest('POST', `/workflows/${id}/activate`, { versionId });
	assert.equal(reply.status, 200, `publishing the workflow: HTTP ${reply.status} ${reply.text}`);
}

/**
 * @param {() => Promise<any>} probe
 * @param {string} what
 */
async function until(probe, what, timeoutMs = 180000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const found = await probe();
		if (found) return found;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * One execution of the workflow, as the editor's REST API gives it, its run data unflattened.
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {(text: string) => any} unflatten
 * @param {string} id
 */
async function execution(server, unflatten, id) {
	const reply = await server.rest('GET', `/executions/${id}`);
	assert.equal(reply.status, 200, `GET /rest/executions/${id}: HTTP ${reply.status}`);
	const found = reply.json.data;
	return { status: String(found.status), data: unflatten(found.data) };
}

/**
 * Waits until the execution waits at `node`, then answers its form as the person does.
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {(text: string) => any} unflatten
 * @param {string} id
 * @param {string} node
 * @param {(page: string, runData: any) => string} answer the value of the form's one field
 */
async function answerForm(server, unflatten, id, node, answer) {
	const waiting = await until(async () => {
		const found = await execution(server, unflatten, id);
		const last = found.data.resultData.lastNodeExecuted;
		return found.status === 'waiting' && last === node ? found : undefined;
	}, `execution ${id} waiting at "${node}"`);
	const url = `${server.url}/form-waiting/${id}?signature=${waiting.data.resumeToken}`;
	const page = await fetch(url);
	assert.equal(page.status, 200, `the form of "${node}": HTTP ${page.status}`);
	const form = new FormData();
	form.append('field-0', answer(await page.text(), waiting.data.resultData.runData));
	// n8n may hold the reply until the execution moves on: the execution's state tells that it did.
	const sent = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(15000) })
		.then((reply) => reply.status)
		.catch(() => 200);
	assert.equal(sent, 200, `sending the form of "${node}": HTTP ${sent}`);
}

/** @param {string} html */
const decode = (html) =>
	html
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&amp;/g, '&');

/**
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {(text: string) => any} unflatten
 * @param {import('../simulator').Simulator} sim
 * @param {'Approve' | 'Reject'} decision
 */
async function runOnce(server, unflatten, sim, decision) {
	sim.reset();
	sim.configure(A_PLUS_SIMULATOR);
	const before = await server.rest('GET', '/executions?limit=100');
	const known = new Set((before.json.data.results ?? []).map((/** @type {any} */ e) => e.id));
	// A published workflow's webhook may take a moment to listen.
	const started = await until(
		async () => {
			const reply = await fetch(`${server.url}/webhook/${WEBHOOK_PATH}`, { method: 'POST' });
			return reply.status === 404 ? undefined : reply;
		},
		'the production webhook',
		60000,
	);
	assert.equal(started.status, 200, `the webhook answered HTTP ${started.status}`);
	const id = await until(async () => {
		const list = await server.rest('GET', '/executions?limit=100');
		return (list.json.data.results ?? []).find((/** @type {any} */ e) => !known.has(e.id))?.id;
	}, 'a new execution');

	/** @type {string[]} */
	let inferred = [];
	await answerForm(server, unflatten, id, 'Confirm the facts', (page, runData) => {
		const analysis = runData['Analyze product'][0].data.main[0][0].json;
		inferred = analysis.facts_to_confirm.map((/** @type {any} */ fact) => String(fact.value));
		assert.equal(inferred.length, 1, 'the simulator infers one fact');
		assert.ok(
			decode(page).includes(`Confirm before use: 1 fact the service inferred from the photos.`),
			'the form shows the facts to confirm',
		);
		// The person corrects the guessed material wherever the brief says it.
		return String(analysis.formattedText).replaceAll(inferred[0], CORRECTED);
	});
	await answerForm(server, unflatten, id, 'Approve the plan', (page) => {
		assert.ok(
			decode(page).includes('Generating this plan bills 3 images, one per module.'),
			'the plan form shows how many images the plan bills',
		);
		// A radio button is sent as the form's own script sends it: a JSON list of the choice.
		return JSON.stringify([decision]);
	});
	const done = await until(async () => {
		const found = await execution(server, unflatten, id);
		return ['waiting', 'running', 'new'].includes(found.status) ? undefined : found;
	}, `execution ${id} to end`);
	assert.equal(done.status, 'success', `execution ${id} ended ${done.status}`);

	const plans = sim.stats.requests.filter((r) => r.route === 'plan');
	assert.equal(plans.length, 1, 'one plan was asked');
	const description = String(plans[0].productDescription);
	assert.ok(description.includes(CORRECTED), 'the plan was asked with the corrected fact');
	assert.ok(!description.includes(inferred[0]), 'the guessed fact did not reach the plan');
	return { runData: done.data.resultData.runData };
}

/**
 * @param {any} runData
 * @param {string} n8nFolder
 * @param {import('../simulator').Simulator} sim
 */
function checkApproved(runData, n8nFolder, sim) {
	const items = (/** @type {string} */ node) => runData[node][0].data.main[0];
	const planned = items('Plan A+ content');
	const fitted = items('Fit to module size');
	assert.equal(sim.stats.submitsAccepted, planned.length, 'one generation per planned module');
	assert.equal(fitted.length, planned.length, 'one fitted image per planned module');
	fitted.forEach((/** @type {any} */ item, /** @type {number} */ index) => {
		const { module, target_width: width, target_height: height } = planned[index].json;
		const size = pngSize(readBinary(itemBinary(item), { n8nFolder }).bytes);
		assert.deepEqual([size?.width, size?.height], [width, height], `the ${module} image's size`);
	});
}

async function main() {
	const started = Date.now();
	const versions = pinsOf('review');
	const workRoot = makeWorkRoot('product-image-review');
	const { installs, tarball } = await preparePackageAndN8n({ versions, workRoot });
	const sim = await startSimulator(A_PLUS_SIMULATOR);
	addSecret(sim.apiKey);
	let passed = 0;
	let failed = 0;
	try {
		for (const version of versions) {
			const install = installs.n8n[version];
			const userFolder = path.join(workRoot, `n8n-${version}`);
			const copy = webhookCopy();
			const { n8n } = await prepareUserFolder({
				install,
				tarball,
				userFolder,
				service: sim,
				examples: [],
				copies: () => [copy],
			});
			const { parse } = require(path.join(install.dir, 'node_modules', 'flatted'));
			const env = { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' };
			await withN8nServer({ install, userFolder, env }, async (server) => {
				info(`n8n ${version}: up at ${server.url}`);
				await publish(server, copy.id);
				for (const decision of /** @type {const} */ (['Approve', 'Reject'])) {
					const problem = await runOnce(server, parse, sim, decision)
						.then(({ runData }) => {
							if (decision === 'Approve') checkApproved(runData, n8n.n8nFolder, sim);
							else {
								assert.equal(sim.stats.submitsAccepted, 0, 'a rejected plan billed images');
								assert.equal(runData['Generate A+ images'], undefined, 'generation ran');
							}
						})
						.then(
							() => undefined,
							(err) =>
								redact(
									err instanceof Error ? `${err.message} ${err.cause ?? ''}`.trim() : String(err),
								),
						);
					if (problem) failed += 1;
					else passed += 1;
					console.log(
						`${problem ? 'FAIL' : 'PASS'} n8n ${version} ${EXAMPLE}: a corrected fact, the plan ${decision === 'Approve' ? 'approved: images at their modules’ sizes' : 'rejected: no generation'}${problem ? `\n      ${problem}` : ''}`,
					);
				}
			});
		}
	} finally {
		await sim.close();
		finishWorkRoot(workRoot, failed, started);
	}
	return { passed, failed };
}

runSuite('review suite', main);
