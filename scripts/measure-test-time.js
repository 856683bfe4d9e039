#!/usr/bin/env node
// What the test command costs from nothing: a fresh clone of HEAD in a temporary folder, a cold
// `npm ci` with an empty npm cache, then `npm test` with an empty real-n8n cache (Node 24 and
// every n8n version installed from scratch). It times `npm ci` and each step `npm test` reports
// ("=== <label> passed in N s (processor time N s)"), reads the machine's load average every few
// seconds and puts the load during each step beside its time, adds up the processor time of the
// whole run (divided by the cores, the least time its work can take), and writes the figures
// between the test-time markers of docs/development.md; nothing else writes them. With
// `--busy N`, N busy loops (one process each, as scripts/stress.js starts them) hold the
// processor for the whole run, and the figures go between the busy markers instead: the quiet and
// the busy table stand side by side. It takes a quarter of an hour or more, and needs the npm
// registry. A failed run writes nothing and exits non-zero.
//   npm run test:time                  measure on the machine as it is, write the quiet table
//   npm run test:time -- --busy 2      measure with two busy loops, write the busy table
//   npm run test:time -- --warm        keep the npm and real-n8n caches (no installs): prints the
//                                      table of the steps, writes nothing
//   npm run test:time -- --keep        keep the temporary folder (the clone and both caches)
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { withProcessorTime, processorSeconds } = require('./lib/processor-time');

const root = path.resolve(__dirname, '..');
const PAGE = path.join(root, 'docs', 'development.md');
const START = '<!-- test-time:start -->';
const END = '<!-- test-time:end -->';
/** The table measured with busy loops holding the processor. */
const BUSY = { start: '<!-- test-time-busy:start -->', end: '<!-- test-time-busy:end -->' };

const STEP_LINE =
	/^=== (.+) (passed in|failed after) (\d+(?:\.\d+)?) s(?: \(processor time (\d+(?:\.\d+)?) s\))?$/;

/**
 * The steps of scripts/test.js's output, in the order they started: `=== <label> passed in N s`,
 * or the one that `failed after N s`, each with its processor time where the line gives it. A
 * step that runs beside the next ones ends after them; it is placed where its first line
 * (`=== <label>…`) stands. The step's command, printed when it starts, is not part of the label.
 */
function parseSteps(output) {
	const lines = output.split(/\r?\n/);
	const steps = [];
	lines.forEach((line, index) => {
		const match = STEP_LINE.exec(line);
		if (!match) return;
		const startedAt = lines.findIndex((l) => l.startsWith(`=== ${match[1]}`));
		steps.push({
			label: match[1],
			passed: match[2] === 'passed in',
			seconds: Number(match[3]),
			...(match[4] === undefined ? {} : { processor: Number(match[4]) }),
			order: startedAt < 0 ? index : startedAt,
		});
	});
	return steps.sort((a, b) => a.order - b.order).map(({ order: _order, ...step }) => step);
}

/** 75 → "1 min 15 s", 9.4 → "9 s", 0.3 → "< 1 s". */
function duration(seconds) {
	if (seconds < 0.5) return '< 1 s';
	const whole = Math.round(seconds);
	if (whole < 60) return `${whole} s`;
	const minutes = Math.floor(whole / 60);
	const rest = whole % 60;
	return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
}

/** A step's label as Markdown text: its `*` (docs/*.md) is not emphasis. */
function cell(label) {
	return label.replace(/[*|]/g, (mark) => `\\${mark}`);
}

/** A step's processor time, or nothing where it was not measured. */
function processorCell(seconds) {
	return seconds === undefined ? '' : duration(seconds);
}

/** "2.4 (5.0 at most)": the 1-minute load average during a step, from the readings in it. */
function loadCell(load) {
	return load ? `${load.mean.toFixed(1)} (${load.max.toFixed(1)} at most)` : '';
}

/**
 * The section between the markers: when and where it was measured, each step with the load
 * during it, the total.
 */
function renderSection({
	date,
	cores,
	cpu,
	node,
	commit,
	npmCiSeconds,
	npmCiProcessor,
	npmCiLoad,
	steps,
	totalSeconds,
	totalProcessor,
	load,
	busy = 0,
}) {
	const rows = [
		{
			label: '`npm ci` (empty npm cache)',
			seconds: npmCiSeconds,
			processor: npmCiProcessor,
			load: npmCiLoad,
		},
		...steps,
	];
	// Side by side, wall times overlap; what a step took from the others is its processor time.
	const cost = totalProcessor === undefined ? (row) => row.seconds : (row) => row.processor ?? 0;
	const whole = totalProcessor ?? rows.reduce((sum, row) => sum + row.seconds, 0);
	const largest = [...rows]
		.sort((a, b) => cost(b) - cost(a))
		.slice(0, 3)
		.map((row) => `${cell(row.label)} ${Math.round((100 * cost(row)) / whole)} %`);
	const limit = totalSeconds < LIMIT_MINUTES * 60 ? 'under' : 'over';
	const markers = busy ? BUSY : { start: START, end: END };
	const flag = busy ? ` -- --busy ${busy}` : '';
	return [
		markers.start,
		`<!-- Written by \`npm run test:time${flag}\` (scripts/measure-test-time.js) from its last run. Edits here are overwritten. -->`,
		'',
		`Measured ${date} on ${cores} cores (${cpu}), Node ${node}, commit \`${commit}\`: a fresh clone,`,
		'`npm ci` with an empty npm cache, then `npm test` with an empty real-n8n cache' +
			(busy
				? `, while ${busy} busy loops (one process each, \`for (;;) {}\`) held the processor.`
				: '.'),
		...(load
			? [
					`The machine's load (its 1-minute load average, read every ${LOAD_EVERY_S} s) was ${load.mean.toFixed(1)} on average and ${load.max.toFixed(1)} at most: with ${cores} cores, above ${cores} means other work wanted the processor too.`,
				]
			: []),
		'Steps that run beside others (the table of the test command says which) overlap them, so the',
		'times add up to more than the total.',
		...(totalProcessor === undefined
			? []
			: [
					`Processor time is what a step's processes used of the cores, user and system (as the shell that ran it counts it: a process that left its parent is not counted). The run used ${duration(totalProcessor)} of it in all: on ${cores} cores, the same work cannot end in less than ${duration(totalProcessor / cores)}.`,
				]),
		'',
		'| Step | Time | Processor time | Load during it |',
		'|---|---|---|---|',
		...rows.map(
			(row) =>
				`| ${cell(row.label)} | ${duration(row.seconds)} | ${processorCell(row.processor)} | ${loadCell(row.load)} |`,
		),
		`| **Total, \`npm ci && npm test\`** | **${duration(totalSeconds)}** (${limit} ${LIMIT_MINUTES} min) | ${processorCell(totalProcessor)} | ${loadCell(load)} |`,
		'',
		`The largest shares${totalProcessor === undefined ? '' : ' of the processor time'}: ${largest.join(', ')}.`,
		markers.end,
	].join('\n');
}

/** The page with its section replaced; throws when the markers are not there once each, in order. */
function withSection(page, section) {
	const { start: open, end: close } = section.startsWith(BUSY.start)
		? BUSY
		: { start: START, end: END };
	const start = page.indexOf(open);
	const end = page.indexOf(close);
	if (start < 0 || end < start || page.indexOf(open, start + 1) >= 0)
		throw new Error(`${path.relative(root, PAGE)} needs one ${open} … ${close} pair`);
	return page.slice(0, start) + section + page.slice(end + close.length);
}

/**
 * Runs a command with the output to the terminal and a log; resolves with its exit code, output,
 * time, processor time, and when each step's closing line (`=== <label> passed in N s`) came.
 */
function timed(command, args, { cwd, env, log }) {
	return new Promise((resolve) => {
		const started = Date.now();
		let output = '';
		let partial = '';
		const endedAt = new Map();
		const timesFile = `${log}.times`;
		const [file, ...rest] = withProcessorTime(command, args, timesFile);
		const child = spawn(file, rest, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		const take = (stream) => (chunk) => {
			output += chunk;
			fs.appendFileSync(log, chunk);
			stream.write(chunk);
			if (stream !== process.stdout) return;
			const lines = (partial + chunk).split(/\r?\n/);
			partial = lines.pop() ?? '';
			for (const line of lines) {
				const match = STEP_LINE.exec(line);
				if (match) endedAt.set(match[1], Date.now());
			}
		};
		child.stdout.on('data', take(process.stdout));
		child.stderr.on('data', take(process.stderr));
		child.on('close', (code, signal) =>
			resolve({
				code: code ?? (signal ? 128 : 1),
				output,
				seconds: (Date.now() - started) / 1000,
				processor: processorSeconds(timesFile),
				started,
				endedAt,
			}),
		);
	});
}

function writeFigures(figures) {
	fs.writeFileSync(PAGE, withSection(fs.readFileSync(PAGE, 'utf8'), renderSection(figures)));
	process.stdout.write(`test-time: figures written into ${path.relative(root, PAGE)}\n`);
}

function machine() {
	const cpus = os.cpus();
	return {
		date: new Date().toISOString().slice(0, 10),
		cores: os.availableParallelism?.() ?? cpus.length,
		cpu: (cpus[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim(),
		node: process.version,
	};
}

function git(...args) {
	const result = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
	return result.stdout.trim();
}

const LOAD_EVERY_S = 5;
/** What a cold run may take on 2 cores: the gate's budget for it. */
const LIMIT_MINUTES = 10;

/**
 * Reads the load average while the run lasts: the figures mean little without it. `during(from,
 * to)` gives the readings of a span (the one just before it when the span is shorter than a read).
 */
function watchLoad() {
	const readings = [{ at: Date.now(), value: os.loadavg()[0] }];
	const timer = setInterval(
		() => readings.push({ at: Date.now(), value: os.loadavg()[0] }),
		LOAD_EVERY_S * 1000,
	);
	timer.unref();
	const summary = (values) => ({
		mean: values.reduce((sum, value) => sum + value, 0) / values.length,
		max: Math.max(...values),
	});
	return {
		during: (from, to) => {
			const inside = readings.filter((r) => r.at >= from && r.at <= to);
			const before = readings.filter((r) => r.at <= to).slice(-1);
			const values = (inside.length ? inside : before).map((r) => r.value);
			return values.length ? summary(values) : undefined;
		},
		stop: () => {
			clearInterval(timer);
			return summary(readings.map((r) => r.value));
		},
	};
}

/** N processes that each keep one core busy until `stop`. */
function busyLoops(count) {
	const loops = Array.from({ length: count }, () =>
		spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
	);
	const stop = () => {
		for (const loop of loops.splice(0)) if (loop.exitCode === null) loop.kill('SIGKILL');
	};
	process.on('exit', stop);
	return stop;
}

async function measure({ keep, busy, warm }) {
	const commit = git('rev-parse', 'HEAD');
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-test-time-'));
	const clone = path.join(work, 'clone');
	const log = path.join(work, 'output.log');
	const env = warm
		? process.env
		: {
				...process.env,
				npm_config_cache: path.join(work, 'npm-cache'),
				PRODUCT_IMAGE_E2E_CACHE: path.join(work, 'n8n-cache'),
			};
	process.stdout.write(
		`test-time: commit ${commit.slice(0, 12)}, working in ${work}${busy ? `, ${busy} busy loops` : ''}${warm ? ', warm caches' : ''}\n`,
	);
	let failed = true;
	const stopBusy = busyLoops(busy);
	try {
		for (const args of [
			['clone', '--quiet', '--no-local', root, clone],
			['-C', clone, 'checkout', '--quiet', '--detach', commit],
		]) {
			if (spawnSync('git', args, { stdio: 'inherit' }).status !== 0)
				throw new Error(`git ${args.join(' ')} failed`);
		}
		const started = Date.now();
		const load = watchLoad();
		const npmCi = await timed('npm', ['ci'], { cwd: clone, env, log });
		if (npmCi.code !== 0) throw new Error(`npm ci failed (exit ${npmCi.code}); see ${log}`);
		const npmTest = await timed('npm', ['test'], { cwd: clone, env, log });
		const totalSeconds = (Date.now() - started) / 1000;
		const steps = parseSteps(npmTest.output).map((step) => {
			const to = npmTest.endedAt.get(step.label) ?? Date.now();
			return { ...step, load: load.during(to - step.seconds * 1000, to) };
		});
		const figures = {
			...machine(),
			commit: commit.slice(0, 7),
			npmCiSeconds: npmCi.seconds,
			npmCiProcessor: npmCi.processor,
			npmCiLoad: load.during(npmCi.started, npmCi.started + npmCi.seconds * 1000),
			steps,
			totalSeconds,
			totalProcessor:
				npmCi.processor === undefined || npmTest.processor === undefined
					? undefined
					: npmCi.processor + npmTest.processor,
			load: load.stop(),
			busy,
		};
		if (npmTest.code !== 0 || steps.length === 0 || steps.some((step) => !step.passed))
			throw new Error(`npm test failed (exit ${npmTest.code}); nothing written; see ${log}`);
		if (warm) process.stdout.write(`\n${renderSection(figures)}\n(warm caches: nothing written)\n`);
		else writeFigures(figures);
		failed = false;
	} finally {
		stopBusy();
		if (keep || failed)
			process.stdout.write(`test-time: the clone, caches and log stay in ${work}\n`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

async function main() {
	const argv = process.argv.slice(2);
	const at = argv.indexOf('--busy');
	const busy = at < 0 ? 0 : Number(argv[at + 1]);
	if (!Number.isInteger(busy) || busy < 0 || (at >= 0 && busy === 0))
		throw new Error(`--busy takes a number of busy loops, not "${argv[at + 1]}"`);
	await measure({ keep: argv.includes('--keep'), warm: argv.includes('--warm'), busy });
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`test-time: ${error.message}\n`);
		process.exit(1);
	});
}

module.exports = { parseSteps, renderSection, withSection, duration, START, END, BUSY };
