#!/usr/bin/env node
// The one test command: build, n8n-node lint (n8n's default config) on the package, type-check,
// the engine, fault and unit suites against the simulator, then the packed package inside real n8n
// installations, pin by pin as test/e2e/lib/matrix.js gives them.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8N_PINS } = require('../test/e2e/lib/config');
const { MATRIX, isWorkflowRow } = require('../test/e2e/lib/matrix');
const { listWorkflows } = require('../test/e2e/lib/workflows');
const { isInstalled } = require('../test/e2e/install-n8n');
const { sharedStartSuites } = require('../test/e2e/lib/server-suites');

const root = path.resolve(__dirname, '..');

/** What git sees as changed or untracked; the run must end with the same list it started with. */
function treeState() {
	const result = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], {
		cwd: root,
		encoding: 'utf8',
	});
	return result.status === 0 ? result.stdout : undefined;
}

const checks = [
	['build', 'npm', ['run', 'build']],
	["n8n-node lint, n8n's default config, on the package's sources", 'npm', ['run', 'lint']],
	['format (Prettier, checked, never rewritten)', 'npm', ['run', 'format']],
	['typecheck', 'npm', ['run', 'typecheck']],
	['unused files, exports and dependencies (knip)', 'npx', ['knip']],
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
];

/**
 * Suites with a script of their own, one line each: [label, script, runs beside the next steps].
 * The queue-mode suite runs beside: it spends much of its time waiting for its workers and the
 * simulator's tasks, which its pin's other suites and the older pins fill.
 * @type {Record<string, [string, string, boolean]>}
 */
const SCRIPT_SUITES = {
	queue: ['queue mode (Postgres, Redis, two workers)', 'test/queue/run.js', true],
	ssrf: ["n8n's SSRF protection refusing the service", 'test/e2e/ssrf-test.js', true],
	review: ['a person answers the review example’s forms', 'test/e2e/review-test.js', true],
};

/** The label of the wait for a pin's install before its first suite. */
const waitLabel = (version) =>
	`real n8n ${version}: its install (Node and n8n, in the background since the start), the wait for it`;

/**
 * The steps of one pinned n8n, as test/e2e/lib/matrix.js gives them: the wait for its install,
 * the suites that run beside the rest (started first), the headless workflow runs, then every
 * suite of test/e2e/lib/server-suites.js on one `n8n start`.
 */
function realN8nSteps(version) {
	const rows = MATRIX.filter((row) => row.n8n === version);
	const has = (suite) => rows.some((row) => row.suite === suite);
	const runs = rows
		.filter(isWorkflowRow)
		.reduce(
			(sum, row) =>
				sum +
				row.modes.length *
					listWorkflows(row.set).filter((w) => !row.only || row.only.includes(w.name)).length,
			0,
		);
	const scripts = Object.entries(SCRIPT_SUITES)
		.filter(([suite]) => has(suite))
		.map(([, [label, script, background]]) => ({
			label: `real n8n ${version}: ${label}`,
			command: 'node',
			args: [script, '--n8n', version],
			background,
		}));
	const shared = Object.entries(sharedStartSuites()).filter(([suite]) => has(suite));
	const steps = [
		...scripts.filter((step) => step.background),
		...(runs > 0
			? [
					{
						label: `real n8n ${version}: ${runs} workflow runs, headless`,
						command: 'node',
						args: ['test/e2e/run.js', '--n8n', version],
					},
				]
			: []),
		...(shared.length
			? [
					{
						label: `real n8n ${version}: ${shared.map(([, title]) => title).join('; ')}, on one n8n start`,
						command: 'node',
						args: ['test/e2e/server-test.js', '--n8n', version],
					},
				]
			: []),
		...scripts.filter((step) => !step.background),
	];
	return steps.length ? [{ label: waitLabel(version), waitFor: version }, ...steps] : [];
}

/** Every step of the test command, in order. */
function plan() {
	return [
		...checks.map(([label, command, args]) => ({ label, command, args })),
		...N8N_PINS.flatMap(({ version }) => realN8nSteps(version)),
	];
}

/** A child in a process group of its own, its output into `log`. */
function spawnLogged(command, args, log, env = process.env) {
	const out = fs.openSync(log, 'w');
	const child = spawn(command, args, {
		cwd: root,
		stdio: ['ignore', out, out],
		env,
		detached: true,
	});
	fs.closeSync(out);
	return child;
}

/** Stops a child started by spawnLogged, with everything it started. */
function stopGroup(child) {
	try {
		process.kill(-child.pid, 'SIGTERM');
	} catch {
		/* already ended */
	}
}

/**
 * Node 24 and the pinned n8n versions, installed in the background from the start, newest first:
 * on an empty cache that is most of ten minutes of downloads and native builds, which need not
 * wait for the build, the lint and jest, and the suites of a pin need not wait for the pins after
 * it. With a full cache it returns at once.
 */
function startInstalls() {
	const log = path.join(
		fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-test-')),
		'install.log',
	);
	const child = spawnLogged('node', [path.join('test', 'e2e', 'install-n8n.js')], log);
	// Also on a failed step or Ctrl-C: no install goes on, and no log is left behind.
	const stop = () => {
		stopGroup(child);
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

/**
 * A step that runs beside the steps after it (SCRIPT_SUITES). Its output goes to a log, shown when
 * it ends; it is stopped with the test command.
 */
function startInBackground(label, command, args, env) {
	const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-step-')), 'out.log');
	const child = spawnLogged(command, args, log, env);
	process.on('exit', () => stopGroup(child));
	process.stdout.write(`=== ${label}: runs beside the next steps (log: ${log})\n`);
	const started = Date.now();
	const ended = new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
	return { label, started, log, ended };
}

/** Waits for a step started in the background, shows its output and reports it as any step. */
async function finishBackground({ label, started, log, ended }) {
	const code = await ended;
	process.stdout.write(`\n=== ${label}, its output\n${fs.readFileSync(log, 'utf8')}`);
	fs.rmSync(path.dirname(log), { recursive: true, force: true });
	finished(label, started, code);
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

/**
 * Waits until the background installs have put n8n `version` in the cache (they install the pins
 * in order, newest first), or have failed.
 */
async function waitForInstall(installs, version) {
	let ended;
	installs.ended.then((code) => (ended = code));
	while (!isInstalled(version)) {
		if (ended !== undefined) return isInstalled(version) ? 0 : ended || 1;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return 0;
}

async function main() {
	const treeBefore = treeState();
	const installs = startInstalls();
	const background = [];
	for (const { label, command, args, waitFor, background: beside } of plan()) {
		const started = Date.now();
		if (waitFor) {
			process.stdout.write(`\n=== ${label}\n`);
			const code = await waitForInstall(installs, waitFor);
			if (code !== 0) process.stdout.write(fs.readFileSync(installs.log, 'utf8'));
			finished(label, started, code);
			continue;
		}
		process.stdout.write(`\n=== ${label} (${[command, ...args].join(' ')})\n`);
		const realN8n = label.startsWith('real n8n');
		// The first step built dist/ from this tree, which no step changes: the real-n8n suites pack it.
		const env = realN8n ? { ...process.env, PRODUCT_IMAGE_E2E_SKIP_BUILD: '1' } : process.env;
		if (beside) background.push(startInBackground(label, command, args, env));
		else finished(label, started, await runStep(command, args, env));
	}
	for (const step of background) await finishBackground(step);
	await installs.ended;
	process.stdout.write(
		`\n=== real n8n installs, their output\n${fs.readFileSync(installs.log, 'utf8')}`,
	);

	// A step that rewrites a tracked file (a table, a figure) hides a stale copy instead of failing on it.
	const treeAfter = treeState();
	if (treeBefore !== undefined && treeAfter !== treeBefore) {
		process.stdout.write(`\n=== the test command changed the tree:\n${treeAfter}\n`);
		process.exit(1);
	}
	process.stdout.write('\n=== the tree is as the run found it\n');
}

if (require.main === module) main();

module.exports = { plan };
