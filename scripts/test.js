#!/usr/bin/env node
// The one test command: the build, then side by side in lanes (the steps of a lane one after
// another): the checks (n8n-node lint with n8n's default config, format, type-check, knip, the
// release and link checks, the registry scanner, the mutation page), jest and the fault table,
// and the packed package inside real n8n installations as test/e2e/lib/matrix.js gives them: the
// newest pin in a lane of its own from the build on, the older pins in another. Each step's output
// is shown when it ends, with its own time.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { N8N_PINS } = require('../test/e2e/lib/config');
const { MATRIX, isWorkflowRow } = require('../test/e2e/lib/matrix');
const { listWorkflows } = require('../test/e2e/lib/workflows');
const { isInstalled } = require('../test/e2e/install-n8n');
const { sharedStartSuites } = require('../test/e2e/lib/server-suites');
const { withProcessorTime, processorSeconds } = require('./lib/processor-time');

const root = path.resolve(__dirname, '..');

/** What git sees as changed or untracked; the run must end with the same list it started with. */
function treeState() {
	const result = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], {
		cwd: root,
		encoding: 'utf8',
	});
	return result.status === 0 ? result.stdout : undefined;
}

/**
 * The steps, each `[label, command, args]`, by lane: the steps of a lane run one after another,
 * the lanes side by side once the build is done. The build comes first: the rest reads `dist/`.
 * The checks are single-threaded and short, jest keeps two workers, and the real-n8n suites spend
 * much of their time waiting for n8n and the simulator's tasks, so each fills what the others
 * leave of the processor.
 */
const BUILD = ['build', 'npm', ['run', 'build']];
const LANES = {
	checks: [
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
		[
			'mutation page (docs/mutation.md) is what the kept results and reasons give',
			'node',
			['scripts/mutation.js', '--check'],
		],
	],
	jest: [
		['engine, fault and unit tests', 'npx', ['jest', '--ci']],
		[
			'fault table (docs/reliability.md) is current, and the key scan',
			'node',
			['scripts/fault-table.js', '--check'],
		],
	],
};

/**
 * The lanes whose steps yield the processor to the rest (a lower priority, `nice`): the checks
 * wait for nothing and nothing waits for them, while the real-n8n lanes are a chain (the install,
 * then the suites that need it) whose end is the test command's end. On a busy processor the
 * chain goes first and the checks take what it leaves.
 */
const YIELDING = new Set(['checks']);

/**
 * Suites with a script of their own, one line each: [label, script]. Each runs beside the rest
 * from when its pin is installed: the queue-mode suite spends much of its time waiting for
 * its workers and the simulator's tasks, the other two for a person's forms and n8n's refusal.
 * @type {Record<string, [string, string]>}
 */
const SCRIPT_SUITES = {
	queue: ['queue mode (Postgres, Redis, two workers)', 'test/queue/run.js'],
	ssrf: ["n8n's SSRF protection refusing the service", 'test/e2e/ssrf-test.js'],
	review: ['a person answers the review example’s forms', 'test/e2e/review-test.js'],
};

/** The label of the installs of every pin, one process in the background from the start. */
const INSTALLS =
	'real n8n installs (Node and n8n of every pin, the Debian packages the suites use, in the background from the start)';

/** The label of the wait for a pin's install before its first suite. */
const waitLabel = (version) =>
	`real n8n ${version}: its install (Node and n8n, in the background since the start), the wait for it`;

/**
 * The steps of one pinned n8n, as test/e2e/lib/matrix.js gives them, in `lane`: the wait for its
 * install, then every suite at once: the suites with a script of their own and every suite of
 * test/e2e/lib/server-suites.js on one `n8n start`, each started beside the headless workflow
 * runs. None waits for another (each has its own simulator, user folder and ports), so none
 * holds back the pin's end but the longest.
 */
function realN8nSteps(version, lane) {
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
	const step = (label, script) => ({
		label: `real n8n ${version}: ${label}`,
		command: 'node',
		args: [script, '--n8n', version],
		lane,
	});
	const scripts = Object.entries(SCRIPT_SUITES)
		.filter(([suite]) => has(suite))
		.map(([, [label, script]]) => ({ ...step(label, script), beside: true }));
	const shared = Object.entries(sharedStartSuites()).filter(([suite]) => has(suite));
	const steps = [
		...scripts,
		...(shared.length
			? [
					{
						...step(
							`${shared.map(([, title]) => title).join('; ')}, on one n8n start`,
							'test/e2e/server-test.js',
						),
						beside: true,
					},
				]
			: []),
		...(runs > 0 ? [step(`${runs} workflow runs, headless`, 'test/e2e/run.js')] : []),
	];
	return steps.length ? [{ label: waitLabel(version), waitFor: version, lane }, ...steps] : [];
}

/**
 * Every step of the test command, lane by lane: the build, then each lane's steps in their order.
 * A step with `beside` starts a lane of its own where its lane reaches it; `waitFor` waits for a
 * pin's install.
 */
function plan() {
	const [newest, ...older] = N8N_PINS.map(({ version }) => version);
	const [label, command, args] = BUILD;
	return [
		{ label, command, args, lane: 'build' },
		...Object.entries(LANES).flatMap(([lane, steps]) =>
			steps.map(([stepLabel, stepCommand, stepArgs]) => ({
				label: stepLabel,
				command: stepCommand,
				args: stepArgs,
				lane,
				yielding: YIELDING.has(lane),
			})),
		),
		...realN8nSteps(newest, 'newest n8n'),
		...older.flatMap((version) => realN8nSteps(version, 'older n8n')),
	];
}

/** Runs a command at a lower priority, with everything it starts, where `nice` exists. */
const NICE = process.platform === 'win32' ? undefined : ['nice', '-n', '10'];

/** Where a step's processor time is written: beside its log. */
const timesFileOf = (log) => path.join(path.dirname(log), 'times');

/**
 * A child in a process group of its own, its output into `log`, its processor time into the file
 * beside it.
 */
function spawnLogged(command, args, log, env = process.env, yielding = false) {
	const out = fs.openSync(log, 'w');
	const accounted = withProcessorTime(command, args, timesFileOf(log));
	const [file, ...rest] = yielding && NICE ? [...NICE, ...accounted] : accounted;
	const child = spawn(file, rest, {
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
 * The processes still running (the steps and the installs) and the logs' folders still on disk,
 * stopped and removed when the test command exits however it ends. One listener for all of them:
 * one per step passed Node's limit of ten, and a process that had ended would still have had its
 * group (by then perhaps another's) signalled.
 */
const running = new Set();
const logFolders = new Set();
process.on('exit', () => {
	running.forEach(stopGroup);
	logFolders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true }));
});

/** A log in a folder of its own, removed at the latest when the test command exits. */
function logIn(prefix, name) {
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	logFolders.add(folder);
	return path.join(folder, name);
}

/** The child is stopped if the test command exits before it ends. */
function stoppedOnExit(child) {
	running.add(child);
	child.on('close', () => running.delete(child));
	return child;
}

/**
 * Node and the pinned n8n versions, installed in the background from the start, every pin at once,
 * with the Debian packages the suites use (test/e2e/install-n8n.js): on an empty cache and a fresh
 * machine that is minutes of downloads and native builds, which need not wait for the build, the
 * lint and jest; the suites of a pin wait for that pin alone (and a suite for a package still being
 * installed). With a full cache it returns at once.
 */
function startInstalls() {
	// Also on a failed step or Ctrl-C: no install goes on, and no log is left behind.
	const log = logIn('product-image-test-', 'install.log');
	const child = stoppedOnExit(
		spawnLogged('node', [path.join('test', 'e2e', 'install-n8n.js')], log),
	);
	for (const [signal, code] of [
		['SIGINT', 130],
		['SIGTERM', 143],
	])
		process.once(signal, () => process.exit(code));
	const started = Date.now();
	const ended = new Promise((resolve) =>
		child.on('close', (code) =>
			resolve({ code: code ?? 1, at: Date.now(), processor: processorSeconds(timesFileOf(log)) }),
		),
	);
	process.stdout.write(`\n=== ${INSTALLS} started (log: ${log})\n`);
	return { log, started, ended };
}

/**
 * Runs one step with its output into a log; when it ends, shows the log and its own time from
 * its start to its end (steps run side by side: each is timed and shown on its own). A failed
 * step ends the test command at once, stopping the rest.
 * @returns {Promise<void>}
 */
function runLogged({ label, command, args, yielding = false }, env) {
	const log = logIn('product-image-step-', 'out.log');
	const started = Date.now();
	const child = stoppedOnExit(spawnLogged(command, args, log, env, yielding));
	process.stdout.write(`\n=== ${label} (${[command, ...args].join(' ')}) started\n`);
	return new Promise((resolve) =>
		child.on('close', (code) => {
			const ended = Date.now();
			process.stdout.write(`\n=== ${label}, its output\n${fs.readFileSync(log, 'utf8')}`);
			const processor = processorSeconds(timesFileOf(log));
			fs.rmSync(path.dirname(log), { recursive: true, force: true });
			logFolders.delete(path.dirname(log));
			finished(label, started, code ?? 1, ended, processor);
			resolve();
		}),
	);
}

/**
 * Says how a step ended and its time, and its processor time when it was measured: `=== <label>
 * passed in 12.3 s (processor time 20.5 s)`. A failed step ends the test command.
 */
function finished(label, started, code, ended = Date.now(), processor = undefined) {
	const seconds = ((ended - started) / 1000).toFixed(1);
	const cost = processor === undefined ? '' : ` (processor time ${processor.toFixed(1)} s)`;
	if (code !== 0) {
		process.stdout.write(`\n=== ${label} failed after ${seconds} s${cost}\n`);
		process.exit(code);
	}
	process.stdout.write(`=== ${label} passed in ${seconds} s${cost}\n`);
}

/** Waits until the background installs have put n8n `version` in the cache, or have failed. */
async function waitForInstall(installs, version) {
	let ended;
	installs.ended.then(({ code }) => (ended = code));
	while (!isInstalled(version)) {
		if (ended !== undefined) return isInstalled(version) ? 0 : ended || 1;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return 0;
}

/**
 * Runs a lane's steps one after another; a step with `beside` is started and left to run beside
 * the lane's next steps, which the lane's end waits for too.
 */
async function runLane(steps, installs) {
	const beside = [];
	for (const step of steps) {
		if (step.waitFor) {
			const started = Date.now();
			process.stdout.write(`\n=== ${step.label}\n`);
			const code = await waitForInstall(installs, step.waitFor);
			if (code !== 0) process.stdout.write(fs.readFileSync(installs.log, 'utf8'));
			finished(step.label, started, code);
			continue;
		}
		// The build made dist/ from this tree, which no step changes: jest loads it and the real-n8n
		// suites pack it as it is, so neither rebuilds it while another reads it.
		const env = { ...process.env, PRODUCT_IMAGE_E2E_SKIP_BUILD: '1' };
		const run = runLogged(step, env);
		if (step.beside) beside.push(run);
		else await run;
	}
	await Promise.all(beside);
}

async function main() {
	const treeBefore = treeState();
	const installs = startInstalls();
	const [build, ...rest] = plan();
	await runLane([build], installs);
	const lanes = [...new Set(rest.map((step) => step.lane))];
	await Promise.all(
		lanes.map((lane) =>
			runLane(
				rest.filter((step) => step.lane === lane),
				installs,
			),
		),
	);
	const installed = await installs.ended;
	process.stdout.write(
		`\n=== real n8n installs, their output\n${fs.readFileSync(installs.log, 'utf8')}`,
	);
	finished(INSTALLS, installs.started, installed.code, installed.at, installed.processor);

	// A step that rewrites a tracked file (a table, a figure) hides a stale copy instead of failing on it.
	const treeAfter = treeState();
	if (treeBefore !== undefined && treeAfter !== treeBefore) {
		process.stdout.write(`\n=== the test command changed the tree:\n${treeAfter}\n`);
		process.exit(1);
	}
	process.stdout.write('\n=== the tree is as the run found it\n');
}

if (require.main === module) main();

module.exports = { plan, runLogged, INSTALLS };
