#!/usr/bin/env node
// What the test command costs from nothing: a fresh clone of HEAD in a temporary folder, a cold
// `npm ci` with an empty npm cache, then `npm test` with an empty real-n8n cache (Node 24 and
// every n8n version installed from scratch). It times `npm ci` and each step `npm test` reports
// ("=== <label> passed in N s") and writes the figures between the test-time markers of
// docs/development.md; nothing else writes them. It takes a quarter of an hour or more, and needs the
// npm registry. A failed run writes nothing and exits non-zero.
//   npm run test:time                  measure and write the figures
//   npm run test:time -- --keep        keep the temporary folder (the clone and both caches)
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const PAGE = path.join(root, 'docs', 'development.md');
const START = '<!-- test-time:start -->';
const END = '<!-- test-time:end -->';

/**
 * The steps of scripts/test.js's output, in order: `=== <label> passed in N s`, or the one that
 * `failed after N s`. The step's command, printed when it starts, is not part of the label.
 */
function parseSteps(output) {
	const steps = [];
	for (const line of output.split(/\r?\n/)) {
		const match = /^=== (.+) (passed in|failed after) (\d+(?:\.\d+)?) s$/.exec(line);
		if (match)
			steps.push({ label: match[1], passed: match[2] === 'passed in', seconds: Number(match[3]) });
	}
	return steps;
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

/** The section between the markers: when and where it was measured, each step, the total. */
function renderSection({
	date,
	cores,
	cpu,
	node,
	commit,
	npmCiSeconds,
	steps,
	totalSeconds,
	load,
}) {
	const rows = [{ label: '`npm ci` (empty npm cache)', seconds: npmCiSeconds }, ...steps];
	const measured = rows.reduce((sum, row) => sum + row.seconds, 0);
	const largest = [...rows]
		.sort((a, b) => b.seconds - a.seconds)
		.slice(0, 3)
		.map((row) => `${cell(row.label)} ${Math.round((100 * row.seconds) / measured)} %`);
	const limit = totalSeconds < LIMIT_MINUTES * 60 ? 'under' : 'over';
	return [
		START,
		'<!-- Written by `npm run test:time` (scripts/measure-test-time.js) from its last run. Edits here are overwritten. -->',
		'',
		`Measured ${date} on ${cores} cores (${cpu}), Node ${node}, commit \`${commit}\`: a fresh clone,`,
		'`npm ci` with an empty npm cache, then `npm test` with an empty real-n8n cache.',
		...(load
			? [
					`The machine's load (its 1-minute load average, read every ${LOAD_EVERY_S} s) was ${load.mean.toFixed(1)} on average and ${load.max.toFixed(1)} at most: with ${cores} cores, above ${cores} means other work wanted the processor too.`,
				]
			: []),
		'',
		'| Step | Time |',
		'|---|---|',
		...rows.map((row) => `| ${cell(row.label)} | ${duration(row.seconds)} |`),
		`| **Total, \`npm ci && npm test\`** | **${duration(totalSeconds)}** (${limit} ${LIMIT_MINUTES} min) |`,
		'',
		`The largest shares: ${largest.join(', ')}.`,
		END,
	].join('\n');
}

/** The page with its section replaced; throws when the markers are not there once each, in order. */
function withSection(page, section) {
	const start = page.indexOf(START);
	const end = page.indexOf(END);
	if (start < 0 || end < start || page.indexOf(START, start + 1) >= 0)
		throw new Error(`${path.relative(root, PAGE)} needs one ${START} … ${END} pair`);
	return page.slice(0, start) + section + page.slice(end + END.length);
}

/** Runs a command with the output to the terminal and a log; resolves with its exit code, output and time. */
function timed(command, args, { cwd, env, log }) {
	return new Promise((resolve) => {
		const started = Date.now();
		let output = '';
		const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
		const take = (stream) => (chunk) => {
			output += chunk;
			fs.appendFileSync(log, chunk);
			stream.write(chunk);
		};
		child.stdout.on('data', take(process.stdout));
		child.stderr.on('data', take(process.stderr));
		child.on('close', (code, signal) =>
			resolve({ code: code ?? (signal ? 128 : 1), output, seconds: (Date.now() - started) / 1000 }),
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

const LOAD_EVERY_S = 15;
/** What a cold run may take on 2 cores: CI's budget for it. */
const LIMIT_MINUTES = 15;

/** Reads the load average while the run lasts: the figures mean little without it. */
function watchLoad() {
	const readings = [os.loadavg()[0]];
	const timer = setInterval(() => readings.push(os.loadavg()[0]), LOAD_EVERY_S * 1000);
	timer.unref();
	return () => {
		clearInterval(timer);
		return {
			mean: readings.reduce((sum, value) => sum + value, 0) / readings.length,
			max: Math.max(...readings),
		};
	};
}

async function measure({ keep }) {
	const commit = git('rev-parse', 'HEAD');
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-test-time-'));
	const clone = path.join(work, 'clone');
	const log = path.join(work, 'output.log');
	const env = {
		...process.env,
		npm_config_cache: path.join(work, 'npm-cache'),
		PRODUCT_IMAGE_E2E_CACHE: path.join(work, 'n8n-cache'),
	};
	process.stdout.write(`test-time: commit ${commit.slice(0, 12)}, working in ${work}\n`);
	let failed = true;
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
		const loadDuringRun = load();
		const steps = parseSteps(npmTest.output);
		if (npmTest.code !== 0 || steps.length === 0 || steps.some((step) => !step.passed))
			throw new Error(`npm test failed (exit ${npmTest.code}); nothing written; see ${log}`);
		writeFigures({
			...machine(),
			commit: commit.slice(0, 7),
			npmCiSeconds: npmCi.seconds,
			steps,
			totalSeconds,
			load: loadDuringRun,
		});
		failed = false;
	} finally {
		if (keep || failed)
			process.stdout.write(`test-time: the clone, caches and log stay in ${work}\n`);
		else fs.rmSync(work, { recursive: true, force: true });
	}
}

async function main() {
	await measure({ keep: process.argv.slice(2).includes('--keep') });
}

if (require.main === module) {
	main().catch((error) => {
		process.stderr.write(`test-time: ${error.message}\n`);
		process.exit(1);
	});
}

module.exports = { parseSteps, renderSection, withSection, duration, START, END };
