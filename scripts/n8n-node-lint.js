#!/usr/bin/env node
// `n8n-node lint`, n8n's own lint for community nodes, with its default configuration, on the
// package's sources. It lints the folder it runs in (`eslint .`), and this repository also holds
// test suites, a simulator and benches that use Node's APIs (servers, files, timers, processes)
// which its n8n Cloud rules rightly forbid in node code. So it runs in a temporary folder that holds
// the package's own sources as the repository has them (package.json, index.js, tsconfig.json,
// nodes/, credentials/) and the repository's eslint.config.mjs, which is n8n's two-line default:
// `n8n-node lint` checks that itself (package.json's n8n.strict) and fails on any other config.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const PACKAGE_SOURCES = [
	'package.json',
	'index.js',
	'tsconfig.json',
	'eslint.config.mjs',
	'nodes',
	'credentials',
];

const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-node-lint-'));
const removeStaging = () => fs.rmSync(staging, { recursive: true, force: true });
// A stopped test command signals this process with the lint: the copy goes all the same, once the
// lint has ended (a signal waits for spawnSync to return).
for (const signal of ['SIGINT', 'SIGTERM'])
	process.once(signal, () => {
		removeStaging();
		process.exit(1);
	});
let status = 1;
try {
	for (const entry of PACKAGE_SOURCES)
		fs.cpSync(path.join(root, entry), path.join(staging, entry), { recursive: true });
	// The tools and the config's import resolve from the repository's own install.
	fs.symlinkSync(
		path.join(root, 'node_modules'),
		path.join(staging, 'node_modules'),
		process.platform === 'win32' ? 'junction' : 'dir',
	);
	const result = spawnSync(path.join(staging, 'node_modules', '.bin', 'n8n-node'), ['lint'], {
		cwd: staging,
		stdio: 'inherit',
		shell: process.platform === 'win32',
	});
	if (result.error) throw result.error;
	status = result.status ?? 1;
	if (result.signal) process.stdout.write(`n8n-node lint was stopped (${result.signal})\n`);
	else if (status === 0)
		process.stdout.write(`n8n-node lint passed on ${PACKAGE_SOURCES.join(', ')}\n`);
	else
		process.stdout.write(
			`n8n-node lint failed; the paths above are in a copy, the same paths under ${root}\n`,
		);
} finally {
	removeStaging();
}
process.exit(status);
