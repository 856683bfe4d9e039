#!/usr/bin/env node
// @ts-check
'use strict';

// The credential test as the editor runs it: the packed package installed in a real n8n
// (each pinned version lib/matrix.js names), `n8n start`, an owner session, then for each case the editor's two
// calls, POST /rest/credentials (save) and POST /rest/credentials/test, against the simulator
// and against servers that are not the service. On n8n 2.x it also checks, on the same
// instance, that the node type n8n serves and its builder tools show carry the package's builder
// hints (lib/builder-hints.js). It shares its n8n start with the other server suites
// (lib/server-suites.js): alone, `node test/e2e/credential-test.js`.
//
// `--n8n 1.85.4` narrows the n8n versions lib/matrix.js runs it on. Environment:
// PRODUCT_IMAGE_E2E_SKIP_BUILD=1, PRODUCT_IMAGE_E2E_KEEP=1, PRODUCT_IMAGE_E2E_CACHE, as for run.js.

const fs = require('node:fs');
const { runSuite } = require('./lib/suite');
const { runServerSuites } = require('./lib/server-suites');
const { checkBuilderHints, readsBuilderHints } = require('./lib/builder-hints');
const { addSecret, redact } = require('./lib/redact');
const { keyLeak } = require('../lib/key-leaks');
const { startForeignOrigin } = require('../simulator/foreign-origins');

const PROBE = '/v1/open/tasks/task_credential_check';
const OTHER_KEY = 'sk-not-for-this-origin-4711';

/**
 * @typedef {{name: string, data: {baseUrl: string, apiKey: string}, status: 'OK' | 'Error', message: RegExp | string}} Case
 * @param {{baseUrl: string, apiKey: string}} sim
 * @param {Record<string, {baseUrl: string}>} foreign
 * @returns {Case[]}
 */
function cases(sim, foreign) {
	const notService = (/** @type {string} */ base, /** @type {string} */ found) =>
		`${base} answered with ${found}, not as the Product Image Generation Service answers. Check 'Base URL': the URL your provider gave you, without /v1.`;
	return [
		{
			name: 'valid key',
			data: sim,
			status: 'OK',
			message: /^Connection successful: the service accepted the key \(request ID req_[0-9a-f]+\)$/,
		},
		{
			name: 'Base URL with /v1',
			data: { ...sim, baseUrl: `${sim.baseUrl}/v1` },
			status: 'Error',
			message: `${sim.baseUrl}/v1 answers the same with or without a key, so it is not the service. Remove /v1 from 'Base URL'. (HTTP 404 without a key)`,
		},
		{
			name: 'wrong key',
			data: { ...sim, apiKey: OTHER_KEY },
			status: 'Error',
			message:
				/^The service rejected the API key\. Copy the key again from your account\. The service said: "Invalid or missing API key" \(request ID req_/,
		},
		{
			name: 'http address redirecting (301) to the service',
			data: { baseUrl: foreign.redirect.baseUrl, apiKey: sim.apiKey },
			status: 'Error',
			message: `'Base URL' forwards to ${sim.baseUrl}: enter ${sim.baseUrl} as 'Base URL'. The key is only sent to the URL you enter. (HTTP 301)`,
		},
		{
			name: '502 page',
			data: { baseUrl: foreign.badGateway.baseUrl, apiKey: OTHER_KEY },
			status: 'Error',
			message: notService(
				foreign.badGateway.baseUrl,
				'a web page titled "502 Bad Gateway" (HTTP 502 Bad Gateway)',
			),
		},
		{
			name: 'website answering 200',
			data: { baseUrl: foreign.website.baseUrl, apiKey: OTHER_KEY },
			status: 'Error',
			message: notService(
				foreign.website.baseUrl,
				'a web page titled "Acme Outdoor Gear" (HTTP 200 OK)',
			),
		},
		{
			name: 'website answering 404 to everything',
			data: { baseUrl: foreign.notFoundPage.baseUrl, apiKey: OTHER_KEY },
			status: 'Error',
			message: notService(
				foreign.notFoundPage.baseUrl,
				'a web page titled "Page not found" (HTTP 404 Not Found)',
			),
		},
	];
}

/**
 * The editor saves the credential, then tests it with the data of the form.
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {Case} c
 */
async function runCase(server, c) {
	const body = { name: `Product Image (${c.name})`, type: 'productImageApi', data: c.data };
	const saved = await server.rest('POST', '/credentials', body);
	const id = saved.json?.data?.id;
	if (saved.status !== 200 || !id)
		return `saving the credential failed: HTTP ${saved.status} ${redact(saved.text.slice(0, 300))}`;
	const tested = await server.rest('POST', '/credentials/test', { credentials: { id, ...body } });
	const result = tested.json?.data;
	if (tested.status !== 200 || !result)
		return `the test call failed: HTTP ${tested.status} ${redact(tested.text.slice(0, 300))}`;
	const messageOk =
		typeof c.message === 'string'
			? result.message === c.message
			: c.message.test(result.message ?? '');
	if (result.status !== c.status || !messageOk) {
		return `expected ${c.status} "${c.message}", got ${result.status} "${redact(String(result.message))}"`;
	}
	return undefined;
}

/**
 * The cases, the builder hints on 2.x and the key scan of n8n's log, against a running n8n.
 * @param {import('./lib/server-suites').SuiteContext} ctx
 */
async function run({ server, install, userFolder, sim }) {
	const version = install.version;
	addSecret(sim.apiKey);
	addSecret(OTHER_KEY);
	/** @type {Record<string, import('../simulator/foreign-origins').ForeignOrigin>} */
	const foreign = {};
	let passed = 0;
	let failed = 0;
	try {
		foreign.redirect = await startForeignOrigin('redirect', { redirectTo: sim.baseUrl });
		for (const kind of /** @type {const} */ (['badGateway', 'website', 'notFoundPage']))
			foreign[kind] = await startForeignOrigin(kind);
		for (const c of cases(sim, foreign)) {
			const problem = await runCase(server, c).catch(
				(err) => `could not run: ${redact(String(err))}`,
			);
			if (problem) failed += 1;
			else passed += 1;
			console.log(
				`${problem ? 'FAIL' : 'PASS'} n8n ${version} credential test: ${c.name}${problem ? `\n      ${problem}` : ''}`,
			);
		}
		if (readsBuilderHints(version)) {
			const problems = await checkBuilderHints(server, install, userFolder).catch((err) => [
				`could not run: ${redact(String(err))}`,
			]);
			if (problems.length > 0) failed += 1;
			else passed += 1;
			console.log(
				`${problems.length > 0 ? 'FAIL' : 'PASS'} n8n ${version} builder hints: served and shown by search_nodes and get_node_types${problems.map((p) => `\n      ${p}`).join('')}`,
			);
		}
		const log = fs.readFileSync(server.logFile, 'utf8');
		if (keyLeak(log, sim.apiKey) || keyLeak(log, OTHER_KEY)) {
			failed += 1;
			console.log(
				`FAIL n8n ${version} credential test: an API key, or a piece of one, appears in n8n's log (${server.logFile})`,
			);
		}
	} finally {
		await Promise.all(Object.values(foreign).map((o) => o.close()));
	}
	return { passed, failed };
}

/** @type {import('./lib/server-suites').ServerSuite} */
const suite = { title: 'credential test through the REST API', run };

if (require.main === module) runSuite('credential suite', () => runServerSuites(['credential']));

module.exports = { suite };
