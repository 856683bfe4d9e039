#!/usr/bin/env node
// The jest suites under load: one busy loop per core takes the processor while the suites run,
// several times over. A suite that holds on a quiet machine and fails here asserts speed, not
// behaviour. Usage:
//   node scripts/stress.js                                   3 runs of every suite
//   node scripts/stress.js --runs 5                          5 runs
//   node scripts/stress.js --busy 4                          4 busy loops instead of one per core
//   node scripts/stress.js --runs 1 test/engine/polling.test.ts   narrows jest to these files
const { spawn } = require('node:child_process');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

function usage(message) {
	process.stderr.write(
		`stress: ${message}\nusage: node scripts/stress.js [--runs N] [--busy N] [jest arguments…]\n`,
	);
	process.exit(2);
}

function count(flag, value) {
	const number = Number(value);
	if (!Number.isInteger(number) || number < 0)
		usage(`${flag} takes a whole number, not "${value}"`);
	return number;
}

const options = { runs: 3, busy: os.availableParallelism?.() ?? os.cpus().length, jest: [] };
const argv = process.argv.slice(2);
for (let index = 0; index < argv.length; index++) {
	const arg = argv[index];
	if (arg === '--runs') options.runs = count(arg, argv[++index]);
	else if (arg === '--busy') options.busy = count(arg, argv[++index]);
	else if (arg === '--help' || arg === '-h') usage('runs the jest suites under load');
	else options.jest.push(arg);
}
if (options.runs < 1) usage('--runs must be at least 1');

/** @type {import('node:child_process').ChildProcess[]} */
const busyLoops = [];
/** @type {import('node:child_process').ChildProcess | undefined} */
let current;

/** Ends every child this script started; safe to call more than once, and from 'exit'. */
function stopChildren() {
	for (const loop of busyLoops.splice(0)) {
		if (loop.exitCode === null && loop.signalCode === null) loop.kill('SIGKILL');
	}
	if (current && current.exitCode === null && current.signalCode === null) {
		// jest runs in its own process group (detached): end it with its workers.
		try {
			process.kill(-current.pid, 'SIGTERM');
		} catch {
			current.kill('SIGTERM');
		}
	}
}
process.on('exit', stopChildren);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		process.stdout.write(`\nstress: ${signal}, stopping the busy loops and jest\n`);
		stopChildren();
		process.exit(130);
	});
}
process.on('uncaughtException', (error) => {
	stopChildren();
	process.stderr.write(`stress: ${error.stack ?? error}\n`);
	process.exit(1);
});

function startBusyLoops() {
	for (let index = 0; index < options.busy; index++) {
		busyLoops.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
	}
}

/** The summary reporter's closing line: "jest: N passed, N failed[, N skipped]". */
function parseSummary(output) {
	const match = /^jest: (\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/m.exec(output);
	if (!match) return undefined;
	return { passed: Number(match[1]), failed: Number(match[2]), skipped: Number(match[3] ?? 0) };
}

/** One jest run; its output goes through to the terminal as it comes. */
function runJest() {
	return new Promise((resolve) => {
		const started = Date.now();
		let output = '';
		current = spawn('npx', ['jest', '--ci', ...options.jest], {
			cwd: root,
			stdio: ['ignore', 'pipe', 'inherit'],
			detached: true,
		});
		current.stdout.on('data', (chunk) => {
			output += chunk;
			process.stdout.write(chunk);
		});
		current.on('close', (code, signal) => {
			current = undefined;
			resolve({
				code: code ?? (signal ? 128 : 1),
				seconds: (Date.now() - started) / 1000,
				summary: parseSummary(output),
			});
		});
	});
}

async function main() {
	process.stdout.write(
		`stress: ${options.runs} run(s) of jest${options.jest.length ? ` ${options.jest.join(' ')}` : ''} with ${options.busy} busy loop(s) on ${os.cpus().length} core(s)\n`,
	);
	startBusyLoops();
	const results = [];
	for (let run = 1; run <= options.runs; run++) {
		process.stdout.write(`\n=== stress run ${run} of ${options.runs}\n`);
		results.push(await runJest());
	}
	stopChildren();

	process.stdout.write('\n=== stress: every run\n');
	const totals = { passed: 0, failed: 0, skipped: 0, runsFailed: 0 };
	results.forEach((result, index) => {
		const { summary } = result;
		const ok = result.code === 0 && summary !== undefined && summary.failed === 0;
		if (!ok) totals.runsFailed++;
		if (summary) {
			totals.passed += summary.passed;
			totals.failed += summary.failed;
			totals.skipped += summary.skipped;
		}
		const figures = summary
			? `${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ''}`
			: 'no summary line (jest did not finish)';
		process.stdout.write(
			`run ${index + 1}: ${ok ? 'PASS' : 'FAIL'}  ${figures}, exit ${result.code}, ${result.seconds.toFixed(0)} s\n`,
		);
	});
	process.stdout.write(
		`total: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}; ${options.runs - totals.runsFailed} of ${options.runs} runs passed\n`,
	);
	process.exit(totals.runsFailed === 0 ? 0 : 1);
}

if (require.main === module) void main();

module.exports = { parseSummary };
