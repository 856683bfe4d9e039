#!/usr/bin/env node
// The one test command: build, n8n-node lint (n8n's default config) on the package, type-check,
// the engine, fault and unit suites against the simulator, then the packed package inside real n8n
// installations.
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** What git sees as changed or untracked; the run must end with the same list it started with. */
function treeState() {
	const result = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], {
		cwd: root,
		encoding: 'utf8',
	});
	return result.status === 0 ? result.stdout : undefined;
}
const treeBefore = treeState();

const steps = [
	['build', 'npm', ['run', 'build']],
	["n8n-node lint, n8n's default config, on the package's sources", 'npm', ['run', 'lint']],
	['format (Prettier, checked, never rewritten)', 'npm', ['run', 'format:check']],
	['typecheck', 'npm', ['run', 'typecheck']],
	[
		'release: GitHub workflows (action-validator), provenance, tarball contents',
		'node',
		['scripts/check-release.js'],
	],
	['links in README.md and docs/*.md lead somewhere', 'node', ['scripts/check-links.js']],
	["n8n's registry scanner, offline (source and tarball)", 'node', ['scripts/registry-scan.js']],
	['engine, fault and unit tests', 'npx', ['jest', '--ci']],
	[
		'fault table (docs/reliability.md) is current, and the key scan',
		'node',
		['scripts/fault-table.js', '--check'],
	],
	[
		'mutation page (docs/mutation.md) is what the kept results and reasons give',
		'node',
		['scripts/mutation.js', '--check'],
	],
	['real n8n (examples, packed package)', 'node', ['test/e2e/run.js']],
	['real n8n (the 0.2.0 examples as saved, node version 1)', 'npm', ['run', 'test:e2e:v1']],
	[
		'real n8n (the examples as saved before node version 3, node version 2)',
		'npm',
		['run', 'test:e2e:v2'],
	],
	[
		'real n8n (a file uploaded under the workflow setting Binary Mode "combined")',
		'npm',
		['run', 'test:e2e:combined'],
	],
	['real n8n (replies in other shapes, n8n 2.41.0)', 'npm', ['run', 'test:e2e:reply-shapes']],
	['real n8n (credential test through the REST API)', 'node', ['test/e2e/credential-test.js']],
	[
		'real n8n editor in headless Chromium (nodes panel, a run, the credential)',
		'node',
		['test/e2e/editor-test.js'],
	],
	['real n8n in queue mode (Postgres, Redis, two workers)', 'node', ['test/queue/run.js']],
];

for (const [label, command, args] of steps) {
	const started = Date.now();
	process.stdout.write(`\n=== ${label} (${[command, ...args].join(' ')})\n`);
	const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.status !== 0) {
		process.stdout.write(`\n=== ${label} failed after ${seconds} s\n`);
		process.exit(result.status ?? 1);
	}
	process.stdout.write(`=== ${label} passed in ${seconds} s\n`);
}

// A step that rewrites a tracked file (a table, a figure) hides a stale copy instead of failing on it.
const treeAfter = treeState();
if (treeBefore !== undefined && treeAfter !== treeBefore) {
	process.stdout.write(`\n=== the test command changed the tree:\n${treeAfter}\n`);
	process.exit(1);
}
process.stdout.write('\n=== the tree is as the run found it\n');
