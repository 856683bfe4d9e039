#!/usr/bin/env node
// @ts-check
'use strict';

// n8n's SSRF protection switched on, as a hardened install has it, with the service's address
// (the simulator on 127.0.0.1, a loopback address n8n blocks by default) not allowed: the packed
// package installed in a real n8n (each pinned version lib/matrix.js names). One workflow runs
// every operation side by side (On Error → Continue, so each node reports its own error) with
// `n8n execute`, then `n8n start` answers the editor's credential Test. Each must say that n8n's
// SSRF protection refused the address, name the setting to change, never retry, never warn of
// billing; the simulator must see no request at all.
//
// `--n8n 2.41.0` narrows the n8n versions. Environment: PRODUCT_IMAGE_E2E_SKIP_BUILD=1,
// PRODUCT_IMAGE_E2E_KEEP=1, PRODUCT_IMAGE_E2E_CACHE, as for run.js.

const fs = require('node:fs');
const path = require('node:path');
const { pinsOf } = require('./lib/matrix');
const { preparePackageAndN8n, makeWorkRoot, finishWorkRoot, runSuite } = require('./lib/suite');
const { installPackage } = require('./install-package');
const { createN8n } = require('./n8n-process');
const { withN8nServer } = require('./lib/n8n-server');
const { writeCredentialFile, CREDENTIAL } = require('./lib/workflows');
const { nodeItems, summary } = require('./lib/run-data');
const { addSecret, redact } = require('./lib/redact');
const { keyLeak } = require('../lib/key-leaks');
const { info, formatDuration } = require('./lib/log');
const { startSimulator } = require('../simulator');

// The other suites allow loopback (lib/next-major-defaults.js); here only a documentation range is.
const SSRF_ON = { N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_IP_RANGES: '192.0.2.0/24' };
const WORKFLOW_ID = 'ssrfBlockedService1';
const TITLE = "n8n's SSRF protection blocked 127.0.0.1";
const SETTING = 'adding 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES and restarting n8n';
const NOTHING_BILLED = 'Nothing was sent to the service, so nothing was billed.';
/** A 1×1 PNG, the photo Upload sends. */
const PHOTO =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * Every operation of the current node version, each after the photo, with whether it may bill.
 * @param {string} baseUrl
 * @returns {{name: string, billable: boolean, parameters: Record<string, unknown>}[]}
 */
function operations(baseUrl) {
	const photoUrl = `${baseUrl}/v1/open/media/front.png`;
	const prompt = 'studio shot';
	return [
		{
			name: 'Upload',
			billable: false,
			parameters: { resource: 'image', operation: 'upload', binaryPropertyName: 'data' },
		},
		{
			name: 'Submit Generation',
			billable: true,
			parameters: { resource: 'image', operation: 'generate', prompt },
		},
		{
			name: 'Generate and Wait',
			billable: true,
			parameters: { resource: 'image', operation: 'generateAndWait', prompt },
		},
		{
			name: 'Analyze',
			billable: true,
			parameters: {
				resource: 'analysis',
				operation: 'analyze',
				imageUrls: photoUrl,
				productDetails: { productName: 'Steel bottle' },
			},
		},
		{
			name: 'Plan A+',
			billable: true,
			parameters: {
				resource: 'aPlusPlan',
				operation: 'create',
				descriptionSource: 'define',
				productDescription: 'Insulated steel bottle',
				imageUrls: photoUrl,
				modules: ['hero'],
			},
		},
		{
			name: 'Task Get',
			billable: false,
			parameters: { resource: 'task', operation: 'get', taskId: 'task_blocked' },
		},
		{
			name: 'Task Wait',
			billable: false,
			parameters: { resource: 'task', operation: 'wait', taskId: 'task_blocked' },
		},
		{
			name: 'Download',
			billable: false,
			parameters: { resource: 'image', operation: 'download', url: photoUrl },
		},
	];
}

/** @param {string} baseUrl */
function workflow(baseUrl) {
	const ops = operations(baseUrl);
	const nodes = [
		{
			id: 'trigger',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'photo',
			name: 'Photo',
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: [200, 0],
			parameters: {
				assignments: {
					assignments: [{ id: 'p', name: 'photo', value: PHOTO, type: 'string' }],
				},
			},
		},
		{
			id: 'file',
			name: 'Photo to file',
			type: 'n8n-nodes-base.convertToFile',
			typeVersion: 1.1,
			position: [400, 0],
			parameters: {
				operation: 'toBinary',
				sourceProperty: 'photo',
				binaryPropertyName: 'data',
				options: { dataIsBase64: true, fileName: 'front.png', mimeType: 'image/png' },
			},
		},
		...ops.map((op, index) => ({
			id: `op-${index}`,
			name: op.name,
			type: 'n8n-nodes-product-image.productImage',
			typeVersion: 2,
			position: [600, index * 150],
			parameters: op.parameters,
			onError: 'continueRegularOutput',
			credentials: { productImageApi: CREDENTIAL },
		})),
	];
	return {
		id: WORKFLOW_ID,
		name: 'Product Image behind SSRF protection',
		active: false,
		nodes,
		connections: {
			Start: { main: [[{ node: 'Photo', type: 'main', index: 0 }]] },
			Photo: { main: [[{ node: 'Photo to file', type: 'main', index: 0 }]] },
			'Photo to file': {
				main: [ops.map((op) => ({ node: op.name, type: 'main', index: 0 }))],
			},
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * What each operation's error item must say; undefined when it does.
 * @param {{billable: boolean}} op @param {any} json
 */
function refusalProblem(op, json) {
	const text = `${json?.error ?? ''} — ${json?.description ?? ''}`;
	if (json?.error !== TITLE) return `expected the error "${TITLE}", got: ${text}`;
	if (!String(json.description).includes(SETTING)) return `the setting is not named: ${text}`;
	if (op.billable && !String(json.description).includes(NOTHING_BILLED))
		return `does not say nothing was billed: ${text}`;
	if (/may have created|bill for it|Try again later|connection/i.test(String(json.description)))
		return `speaks of the service or the network: ${text}`;
	return undefined;
}

/**
 * @param {import('./lib/n8n-server').N8nServer} server
 * @param {{baseUrl: string, apiKey: string}} data
 */
async function credentialTest(server, data) {
	const body = { name: 'Product Image (blocked)', type: 'productImageApi', data };
	const saved = await server.rest('POST', '/credentials', body);
	const id = saved.json?.data?.id;
	if (saved.status !== 200 || !id) return `saving failed: HTTP ${saved.status}`;
	const tested = await server.rest('POST', '/credentials/test', { credentials: { id, ...body } });
	const result = tested.json?.data;
	const expected = `${TITLE}. n8n did not connect: 127.0.0.1 is in an IP range this n8n blocks (N8N_SSRF_BLOCKED_IP_RANGES). Nothing was sent. An n8n administrator can allow it by ${SETTING}.`;
	console.log(`      credential Test said: ${result?.status} "${redact(String(result?.message))}"`);
	if (result?.status !== 'Error' || result.message !== expected)
		return `expected Error "${expected}"`;
	return undefined;
}

async function main() {
	const started = Date.now();
	const versions = pinsOf('ssrf');
	const workRoot = makeWorkRoot('product-image-ssrf');
	const { installs, tarball } = await preparePackageAndN8n({ versions, workRoot });
	const sim = await startSimulator();
	addSecret(sim.apiKey);
	const service = { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	let passed = 0;
	let failed = 0;
	/** @param {string} name @param {string | undefined} problem */
	const report = (name, problem) => {
		if (problem) failed += 1;
		else passed += 1;
		console.log(`${problem ? 'FAIL' : 'PASS'} ${name}${problem ? `\n      ${problem}` : ''}`);
	};
	try {
		for (const version of versions) {
			const userFolder = path.join(workRoot, `n8n-${version}`);
			const install = installs.n8n[version];
			await installPackage({ node: install.node, userFolder, tarball });
			const n8n = await createN8n({ install, userFolder, binaryMode: 'filesystem', env: SSRF_ON });
			const credentialFile = path.join(userFolder, 'credentials.json');
			writeCredentialFile(credentialFile, service);
			await n8n.importCredentials(credentialFile);
			fs.rmSync(credentialFile, { force: true });
			const workflowFile = path.join(userFolder, 'workflow.json');
			fs.writeFileSync(workflowFile, JSON.stringify(workflow(sim.baseUrl)));
			await n8n.importWorkflow(workflowFile);

			const t = Date.now();
			const execution = await n8n.executeWorkflow(WORKFLOW_ID);
			const output = `${execution.stdout}\n----- stderr -----\n${execution.stderr}`;
			fs.writeFileSync(path.join(userFolder, 'execution.log'), redact(output));
			info(`n8n ${version}: the workflow ran in ${formatDuration(Date.now() - t)}`);
			const runData = execution.runData ?? {};
			for (const op of operations(sim.baseUrl)) {
				let problem;
				try {
					const items = nodeItems(runData, op.name);
					console.log(
						`      ${op.name}: ${redact(String(items[0]?.json?.error))} — ${redact(String(items[0]?.json?.description))}`,
					);
					problem =
						items.length === 1 ? refusalProblem(op, items[0].json) : `${items.length} items`;
				} catch (err) {
					problem = `${err instanceof Error ? err.message : String(err)} (ran: ${summary(runData)})`;
				}
				report(`n8n ${version} SSRF protection: ${op.name} refused`, problem);
			}
			report(
				`n8n ${version} SSRF protection: no retry logged`,
				/; retry \d+ of \d+/.test(output) ? 'the log shows a retry' : undefined,
			);
			const stats = sim.stats;
			report(
				`n8n ${version} SSRF protection: nothing reached the service`,
				stats.requests.length > 0 ? `${stats.requests.length} requests reached it` : undefined,
			);

			await withN8nServer({ install, userFolder, env: SSRF_ON }, async (server) => {
				const problem = await credentialTest(server, service).catch(
					(err) => `could not run: ${redact(String(err))}`,
				);
				report(`n8n ${version} SSRF protection: the credential Test`, problem);
				if (keyLeak(fs.readFileSync(server.logFile, 'utf8'), sim.apiKey))
					report(`n8n ${version} SSRF protection: the key in n8n's log`, 'it appears');
			});
			if (keyLeak(output, sim.apiKey))
				report(`n8n ${version} SSRF protection: the key in the run's output`, 'it appears');
			report(
				`n8n ${version} SSRF protection: nothing reached the service, Test included`,
				sim.stats.requests.length > 0
					? `${sim.stats.requests.length} requests reached it`
					: undefined,
			);
		}
	} finally {
		await sim.close();
		finishWorkRoot(workRoot, failed, started);
	}
	return { passed, failed };
}

runSuite('SSRF suite', main);
