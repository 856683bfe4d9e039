// @ts-check
'use strict';

// What an `n8n execute` needs n8n to start, read from the workflows it runs: each command boots
// n8n anew, and a boot that loads every node n8n ships and starts its task runner costs more
// processor time than the run itself. Only the headless runs use this (run.js): the editor's
// palette and a server's webhooks need the full set, and a workflow the scope misjudges fails
// loudly (an unknown node type, a Code node's task refused), never passes.

const fs = require('node:fs');
const path = require('node:path');
const { NODE_TYPE } = require('./checks');
const { runnersConfig } = require('../n8n-process');

/** The call a node makes to hand its work to n8n's task runner (the Code node's sandboxes). */
const RUNNER_CALL = 'startJob';

/** @param {any[]} workflows @returns {string[]} */
const typesOf = (workflows) => workflows.flatMap((w) => (w.nodes ?? []).map((n) => n.type));

/**
 * n8n's NODES_INCLUDE for a user folder: every node type its workflows use, and the package's
 * own node whatever they hold. Credentials are not filtered by it.
 * @param {any[]} workflows
 */
function includedNodes(workflows) {
	return JSON.stringify([...new Set([NODE_TYPE, ...typesOf(workflows)])].sort());
}

/** @param {string} dir @returns {string[]} */
function jsFiles(dir) {
	return fs
		.readdirSync(dir, { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile() && e.name.endsWith('.js'))
		.map((e) => path.join(e.parentPath, e.name));
}

/**
 * Whether a node type's folder in this n8n holds code that calls the task runner. A type n8n does
 * not ship (the package's own, installed in the user folder) has no entry here, and the package's
 * node does not call it.
 * @param {import('../install-n8n').N8nInstall} install
 * @param {string} type
 */
function callsRunner(install, type) {
	const cut = type.lastIndexOf('.');
	const packageDir = path.join(install.dir, 'node_modules', type.slice(0, cut));
	/** @type {Record<string, {sourcePath: string}>} */
	let known;
	try {
		known = JSON.parse(
			fs.readFileSync(path.join(packageDir, 'dist', 'known', 'nodes.json'), 'utf8'),
		);
	} catch {
		return false;
	}
	const source = known[type.slice(cut + 1)]?.sourcePath;
	if (!source) return false;
	return jsFiles(path.dirname(path.join(packageDir, source))).some((file) =>
		fs.readFileSync(file, 'utf8').includes(RUNNER_CALL),
	);
}

/**
 * The settings that start no task runner for a workflow none of whose nodes calls it, on an n8n
 * that starts one for every `n8n execute` (2.x: its runners config has no on/off switch; 1.x starts
 * none unless N8N_RUNNERS_ENABLED). External mode makes n8n wait for a runner to connect instead
 * of launching its own.
 * @param {import('../install-n8n').N8nInstall} install
 * @param {any} workflow
 * @returns {Record<string, string>}
 */
function runnerEnv(install, workflow) {
	if (runnersConfig(install).includes('N8N_RUNNERS_ENABLED')) return {};
	if ([...new Set(typesOf([workflow]))].some((type) => callsRunner(install, type))) return {};
	return { N8N_RUNNERS_MODE: 'external', N8N_RUNNERS_AUTH_TOKEN: 'no-runner-connects' };
}

module.exports = { includedNodes, runnerEnv };
