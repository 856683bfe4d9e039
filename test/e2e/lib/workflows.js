// @ts-check
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT, E2E_DIR } = require('./config');
const { SETS } = require('./matrix');

/**
 * @typedef {import('./matrix').SetName} SetName
 * @typedef {{name: string, file: string, set: SetName}} WorkflowFile
 */

/**
 * Where a set's workflows, expectations, pins (`{"Node name": [items]}` for third-party nodes) and
 * files live. The examples' expectations and pins are test/e2e's; a fixture folder brings its own.
 * Files a set's workflows read (`files/`) are copied into the user folder's `files/`, the one folder
 * the run lets n8n's file nodes use (n8n 2.x allows only `~/.n8n-files` by default).
 * @param {SetName} set
 */
function setFolders(set) {
	const dir = SETS[set];
	if (!dir)
		throw new Error(`unknown workflow set "${set}" (known: ${Object.keys(SETS).join(', ')})`);
	const own = (/** @type {string} */ sub) =>
		fs.existsSync(path.join(dir, sub)) ? path.join(dir, sub) : undefined;
	return {
		dir,
		expectations: own('expectations') ?? path.join(E2E_DIR, 'expectations'),
		pins: own('pins') ?? path.join(E2E_DIR, 'fixtures'),
		files: own('files'),
	};
}

const CREDENTIAL_TYPE = 'productImageApi';
const CREDENTIAL = { id: 'sim-cred', name: 'Product Image (simulator)' };
// Examples with an AI model talk to the local fake of OpenAI's API (lib/fake-openai.js).
const LLM_CREDENTIAL_TYPE = 'openAiApi';
const LLM_CREDENTIAL = { id: 'fake-openai-cred', name: 'OpenAI (local fake)' };
const START_TYPES = ['n8n-nodes-base.manualTrigger', '@n8n/n8n-nodes-langchain.manualChatTrigger'];
// Triggers `n8n execute` cannot start from; the headless copy starts there by hand instead.
const SCHEDULE_TYPES = ['n8n-nodes-base.scheduleTrigger', 'n8n-nodes-base.cron'];

// Examples that need queue mode (sub-workflows by id, Data Tables by name, a scheduled
// collector): test/queue runs them, `n8n execute` cannot.
const QUEUE_ONLY_EXAMPLES = new Set(['catalogue-fan-out', 'catalogue-submit', 'catalogue-collect']);

/**
 * The workflows of a set that `n8n execute` can run.
 * @param {SetName} [set]
 * @returns {WorkflowFile[]}
 */
function listWorkflows(set = 'examples') {
	const { dir } = setFolders(set);
	if (!fs.existsSync(dir)) return [];
	return fs
		.readdirSync(dir)
		.filter((f) => f.endsWith('.json') && !QUEUE_ONLY_EXAMPLES.has(f.slice(0, -'.json'.length)))
		.sort()
		.map((f) => ({ name: f.slice(0, -'.json'.length), file: path.join(dir, f), set }));
}

/** The example workflows users import (`examples/`). */
function listExamples() {
	return listWorkflows('examples');
}

/**
 * n8n accepts any id up to 21 characters; a stable one derived from the file name keeps
 * re-imports replacing the same workflow instead of piling up copies.
 * @param {string} name
 */
function stableId(name) {
	return crypto
		.createHash('sha256')
		.update(name)
		.digest('base64url')
		.replace(/[-_]/g, 'x')
		.slice(0, 16);
}

/** @param {unknown} item */
function asItem(item) {
	return item && typeof item === 'object' && 'json' in item ? item : { json: item };
}

/**
 * @param {WorkflowFile} example
 * @returns {{file: string, pins: Record<string, object[]>} | undefined}
 */
function readPins(example) {
	const file = path.join(setFolders(example.set).pins, `${example.name}.pin.json`);
	if (!fs.existsSync(file)) return undefined;
	const pins = JSON.parse(fs.readFileSync(file, 'utf8'));
	/** @type {Record<string, object[]>} */
	const out = {};
	for (const [node, items] of Object.entries(pins))
		out[node] = (Array.isArray(items) ? items : [items]).map(asItem);
	return { file, pins: out };
}

/**
 * `n8n execute` runs in 'cli' mode, where n8n ignores pinData (it only applies to manual
 * runs from the editor). So for the headless run a pinned node is swapped for a Code node
 * of the same name that returns the pinned items; downstream `$('Name')` references keep
 * working. The pins stay in `pinData` as well, for the editor.
 * @param {any} node
 * @param {object[]} items
 */
function pinnedStandIn(node, items) {
	return {
		id: node.id,
		name: node.name,
		position: node.position,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode: `return ${JSON.stringify(items, null, 2)};` },
		notes: `stand-in for ${node.type} (pinned test data)`,
	};
}

/**
 * A scheduled workflow runs headless from a Manual Trigger of the same name: the run is what
 * one tick of the schedule would start.
 * @param {any} node
 */
function manualStandIn(node) {
	return {
		id: node.id,
		name: node.name,
		position: node.position,
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		parameters: {},
		notes: `stand-in for ${node.type} (one tick of the schedule)`,
	};
}

/**
 * The test copy of an example: a stable id, the simulator credential on every node that
 * uses this package's credential, and the fixture pins.
 * @param {WorkflowFile} example
 * @param {{pins?: 'replace' | 'pinData'}} [options] 'replace' for headless runs, 'pinData' for the editor
 */
function prepareWorkflow(example, options = {}) {
	const workflow = JSON.parse(fs.readFileSync(example.file, 'utf8'));
	workflow.id =
		typeof workflow.id === 'string' && workflow.id.length > 0 && workflow.id.length <= 21
			? workflow.id
			: stableId(example.name);
	workflow.name = workflow.name || example.name;
	workflow.active = false;
	workflow.connections = workflow.connections ?? {};
	workflow.settings = workflow.settings ?? {};

	for (const node of workflow.nodes ?? []) {
		if (node.credentials && CREDENTIAL_TYPE in node.credentials)
			node.credentials[CREDENTIAL_TYPE] = { ...CREDENTIAL };
		if (node.credentials && LLM_CREDENTIAL_TYPE in node.credentials)
			node.credentials[LLM_CREDENTIAL_TYPE] = { ...LLM_CREDENTIAL };
	}

	const pinned = readPins(example);
	const pins = pinned?.pins;
	if (pinned && pins) {
		const names = new Set((workflow.nodes ?? []).map((/** @type {any} */ n) => n.name));
		const unknown = Object.keys(pins).filter((n) => !names.has(n));
		if (unknown.length) {
			throw new Error(
				`${path.relative(REPO_ROOT, pinned.file)} pins nodes the workflow does not have: ${unknown.join(', ')}`,
			);
		}
		workflow.pinData = { ...(workflow.pinData ?? {}), ...pins };
		if (options.pins !== 'pinData') {
			workflow.nodes = workflow.nodes.map((/** @type {any} */ n) =>
				pins[n.name] ? pinnedStandIn(n, pins[n.name]) : n,
			);
		}
	}

	if (options.pins !== 'pinData') {
		workflow.nodes = workflow.nodes.map((/** @type {any} */ n) =>
			SCHEDULE_TYPES.includes(n.type) ? manualStandIn(n) : n,
		);
	}

	// The editor starts any trigger by hand; only the headless run needs a Manual Trigger.
	if (
		options.pins !== 'pinData' &&
		!(workflow.nodes ?? []).some((/** @type {any} */ n) => START_TYPES.includes(n.type))
	) {
		throw new Error(
			`${path.relative(REPO_ROOT, example.file)} has no Manual Trigger: \`n8n execute\` can only start a workflow from one`,
		);
	}
	return workflow;
}

/**
 * Workflows refer to the credential by id, so its display name is free to say which
 * service it points at.
 * @param {string} file
 * @param {{baseUrl: string, apiKey: string, credentialName?: string}} service
 * @param {{baseUrl: string, apiKey: string}} [llm] an OpenAI-compatible endpoint for AI model nodes
 */
function writeCredentialFile(file, service, llm) {
	/** @type {{id: string, name: string, type: string, data: Record<string, string>}[]} */
	const credentials = [
		{
			id: CREDENTIAL.id,
			name: service.credentialName ?? CREDENTIAL.name,
			type: CREDENTIAL_TYPE,
			data: { baseUrl: service.baseUrl, apiKey: service.apiKey },
		},
	];
	// `url` is the credential's Base URL field (n8n 1.123 and 2.41 alike); the model nodes
	// send every request there.
	if (llm)
		credentials.push({
			...LLM_CREDENTIAL,
			type: LLM_CREDENTIAL_TYPE,
			data: { apiKey: llm.apiKey, url: llm.baseUrl },
		});
	fs.writeFileSync(file, JSON.stringify(credentials, null, 2), { mode: 0o600 });
}

/** @param {WorkflowFile} workflow */
function expectationFile(workflow) {
	const file = path.join(setFolders(workflow.set).expectations, `${workflow.name}.js`);
	return fs.existsSync(file) ? file : undefined;
}

module.exports = {
	CREDENTIAL,
	LLM_CREDENTIAL,
	setFolders,
	listWorkflows,
	listExamples,
	prepareWorkflow,
	writeCredentialFile,
	expectationFile,
	stableId,
};
