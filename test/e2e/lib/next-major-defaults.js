// @ts-check
'use strict';

// n8n 3.0 closes defaults that 2.41 already has as switches: the real-n8n suites run the node with
// them switched on, so that a 3.0 install meets nothing the suites have not seen. Each switch is
// set only where the installed n8n reads it (found in its own code, as n8n-process.js finds the
// broker's port variable); the 1.x pins keep their own defaults, which their users run.
// docs/development.md ("n8n 3.0's defaults") says which change is tried how.

const fs = require('node:fs');
const path = require('node:path');

/** The simulator, its CDN origin, the fake OpenAI API and the foreign origins all listen on loopback. */
const SIMULATOR_RANGES = '127.0.0.0/8';

/** @param {import('../install-n8n').N8nInstall} install @param {string} file @param {string} name */
function reads(install, file, name) {
	try {
		return fs.readFileSync(path.join(install.dir, 'node_modules', file), 'utf8').includes(name);
	} catch {
		return false;
	}
}

/**
 * The 3.0 defaults this n8n can be given, for every process it starts. Binary data: 2.x already
 * defaults to the file store (the database in queue mode), which 3.0 keeps and the suites no longer
 * override. A caller's own settings come after these and win (a suite that blocks the simulator).
 * @param {import('../install-n8n').N8nInstall} install
 * @returns {Record<string, string>}
 */
function nextMajorDefaults(install) {
	if (Number(install.version.split('.')[0]) < 2) return {};
	/** @type {Record<string, string>} */
	const env = {};
	if (
		reads(
			install,
			'@n8n/config/dist/configs/ssrf-protection.config.js',
			'N8N_SSRF_PROTECTION_ENABLED',
		)
	) {
		env.N8N_SSRF_PROTECTION_ENABLED = 'true';
		env.N8N_SSRF_ALLOWED_IP_RANGES = SIMULATOR_RANGES;
	}
	// 300 s in 2.x, 60 s in 3.0: the Code nodes of the examples (pinned data, catalog rows) must fit.
	if (reads(install, '@n8n/config/dist/configs/runners.config.js', 'N8N_RUNNERS_TASK_TIMEOUT'))
		env.N8N_RUNNERS_TASK_TIMEOUT = '60';
	return env;
}

/**
 * Queue mode's 3.0 default: a manual run (the editor's Execute button) goes to a worker, not the
 * main process.
 * @param {import('../install-n8n').N8nInstall} install
 * @returns {Record<string, string>}
 */
function nextMajorQueueDefaults(install) {
	return Number(install.version.split('.')[0]) >= 2 &&
		reads(install, 'n8n/dist/commands/start.js', 'OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS')
		? { OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true' }
		: {};
}

module.exports = { nextMajorDefaults, nextMajorQueueDefaults };
