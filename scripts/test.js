#!/usr/bin/env node
// The one test command: build, n8n-node lint (n8n's default config) on the package, type-check,
// the engine, fault and unit suites against the simulator, then the packed package inside real n8n
// installations.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8N_PINS } = require('../test/e2e/lib/config');

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

/**
 * Node 24 and the pinned n8n versions, installed while the steps before the real-n8n suites run:
 * on an empty cache that is most of ten minutes of downloads and native builds, which need not
 * wait for the build, the lint and jest. With a full cache it returns at once.
 */
function startInstalls() {
	const log = path.join(
		fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-test-')),
		'install.log',
	);
	const out = fs.openSync(log, 'w');
	const child = spawn('node', [path.join('test', 'e2e', 'install-n8n.js')], {
		cwd: root,
		stdio: ['ignore', out, out],
		detached: true,
	});
	fs.closeSync(out);
	// Also on a failed step or Ctrl-C: no install goes on, and no log is left behind.
	const stop = () => {
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			/* already ended */
		}
		fs.rmSync(path.dirname(log), { recursive: true, force: true });
	};
	process.on('exit', stop);
	for (const [signal, code] of [
		['SIGINT', 130],
		['SIGTERM', 143],
	])
		process.once(signal, () => process.exit(code));
	const ended = new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
	process.stdout.write(`\n=== real n8n installs started in the background (log: ${log})\n`);
	return { log, ended };
}

/** @returns {Promise<number>} the step's exit code */
function runStep(command, args, env) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
		child.on('close', (code) => resolve(code ?? 1));
	});
}

function finished(label, started, code) {
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (code !== 0) {
		process.stdout.write(`\n=== ${label} failed after ${seconds} s\n`);
		process.exit(code);
	}
	process.stdout.write(`=== ${label} passed in ${seconds} s\n`);
}

async function main() {
	const installs = startInstalls();
	let installed = false;
	for (const [label, command, args] of steps) {
		const realN8n = label.startsWith('real n8n');
		if (realN8n && !installed) {
			const waited = Date.now();
			const label = `real n8n installs (Node 24, n8n ${N8N_PINS.map((p) => p.version).join(', ')}), the wait for them`;
			process.stdout.write(`\n=== ${label}\n`);
			const code = await installs.ended;
			process.stdout.write(fs.readFileSync(installs.log, 'utf8'));
			finished(label, waited, code);
			installed = true;
		}
		const started = Date.now();
		process.stdout.write(`\n=== ${label} (${[command, ...args].join(' ')})\n`);
		// The first step built dist/ from this tree, which no step changes: the real-n8n suites pack it.
		const env = realN8n ? { ...process.env, PRODUCT_IMAGE_E2E_SKIP_BUILD: '1' } : process.env;
		finished(label, started, await runStep(command, args, env));
	}

	// A step that rewrites a tracked file (a table, a figure) hides a stale copy instead of failing on it.
	const treeAfter = treeState();
	if (treeBefore !== undefined && treeAfter !== treeBefore) {
		process.stdout.write(`\n=== the test command changed the tree:\n${treeAfter}\n`);
		process.exit(1);
	}
	process.stdout.write('\n=== the tree is as the run found it\n');
}

main();
