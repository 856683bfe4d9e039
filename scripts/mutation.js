#!/usr/bin/env node
// npm run mutation: StrykerJS over the code that guards money (submits), keys (the request path)
// and cancels (the wait, the run's stop signal), and where a slip misleads or bills (the set in
// stryker.config.mjs), then docs/mutation.md from the results: the score
// per file and every mutant that survived, each with the one-line reason from
// docs/mutation-notes.json why no test can kill it. A survivor without a reason fails the run.
//
// A whole run takes most of an hour on 2 cores, so StrykerJS keeps every result between runs (its
// incremental file, in the cache folder: test/mutation/record.js) and a run reuses every result
// whose code and covering tests are unchanged. A run stopped with Ctrl-C keeps what it finished:
// the next run goes on from there, and the page says how many of the set's mutants have a result so
// far. What the page is written from, the run's facts, each file's counts and every survivor, is
// kept in the repository (test/mutation/results.json, a few kilobytes), so the page can be checked
// and rewritten on a clone that has no record.
//
// --report-only rewrites the page from test/mutation/results.json (after editing a reason); --check,
// which npm test runs, rewrites nothing and fails when the page is not what those results and the
// reasons give, when a survivor has no reason, or when a reason names no surviving mutant. Neither
// needs the record.
//
// StrykerJS 10 needs Node 22 or newer; the package itself supports Node 20, so the run uses the
// Node 24 the real-n8n suites install into the cache (node test/e2e/install-n8n.js) when this one is older.
// Arguments after `--` go to Stryker, e.g. `npm run mutation -- --mutate nodes/ProductImage/transport/retry.ts`.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cacheDir, NODE_PACKAGE } = require('../test/e2e/lib/config');
const { RECORD } = require('../test/mutation/record');

const root = path.resolve(__dirname, '..');
// What the page is written from: the last run's facts, each file's counts, every survivor.
const RESULTS = path.join(root, 'test', 'mutation', 'results.json');
const NOTES = path.join(root, 'docs', 'mutation-notes.json');
const OUTPUT = path.join(root, 'docs', 'mutation.md');

function fail(message) {
	process.stderr.write(`mutation: ${message}\n`);
	process.exit(1);
}

/** A Node that StrykerJS accepts: this one, or the cached Node 24. */
function nodeBinDir() {
	if (Number(process.versions.node.split('.')[0]) >= 22) return path.dirname(process.execPath);
	const dir = path.join(cacheDir(), 'node24', 'node_modules', NODE_PACKAGE, 'bin');
	if (!fs.existsSync(path.join(dir, 'node'))) {
		fail(
			`StrykerJS needs Node 22 or newer and this is ${process.version}; no Node 24 in ${dir} (node test/e2e/install-n8n.js puts it there)`,
		);
	}
	return dir;
}

/**
 * Runs Stryker with its output shown as it comes, and reads from it how many mutants the set has
 * and how many results were reused. Ctrl-C stops Stryker, which keeps what it finished; this
 * script then writes the page from that.
 */
function runStryker(args) {
	const bin = nodeBinDir();
	const started = Date.now();
	const child = spawn(
		path.join(bin, 'node'),
		[
			path.join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'),
			'run',
			...args,
		],
		{
			cwd: root,
			stdio: ['inherit', 'pipe', 'inherit'],
			env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
		},
	);
	process.on('SIGINT', () => {});
	const seen = { mutants: undefined, reused: undefined, stopped: false };
	let pending = '';
	child.stdout.on('data', (chunk) => {
		process.stdout.write(chunk);
		const lines = (pending + chunk.toString()).split('\n');
		pending = lines.pop();
		for (const line of lines) {
			const instrumented = /Instrumented \d+ source file\(s\) with (\d+) mutant/.exec(line);
			if (instrumented) seen.mutants = Number(instrumented[1]);
			const reused = /(\d+) of \d+ mutant result\(s\) are reused/.exec(line);
			if (reused) seen.reused = Number(reused[1]);
			if (/Saved a partial incremental report/.test(line)) seen.stopped = true;
		}
	});
	return new Promise((resolve) => {
		child.on('close', (code, signal) => {
			if (code !== 0 && !seen.stopped) fail(`stryker exited with ${code ?? signal}`);
			resolve({
				...seen,
				minutes: (Date.now() - started) / 60_000,
				node: spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim(),
			});
		});
	});
}

/**
 * How a mutant is named in docs/mutation-notes.json: file, the line it changes (its text, so a
 * reason survives lines moving above it), mutator and what it put there.
 */
function mutantKey({ file, original, mutator, replacement }) {
	return `${file}: ${original} | ${mutator} ${JSON.stringify(replacement ?? '')}`;
}

/** Whether the line a reason names is no longer in its file: the code it explained is gone. */
function lineGone(key) {
	const file = key.slice(0, key.indexOf(': '));
	const original = key.slice(file.length + 2, key.lastIndexOf(' | '));
	const where = path.join(root, file);
	if (!fs.existsSync(where)) return true;
	return !fs
		.readFileSync(where, 'utf8')
		.split('\n')
		.some((line) => line.trim() === original);
}

const KILLED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);
/** Statuses of mutants that have no result yet. */
const PENDING = new Set(['Pending', undefined]);

/** The set stryker.config.mjs mutates, as files and position ranges. */
async function mutatedSet() {
	const { default: config } = await import(path.join(root, 'stryker.config.mjs'));
	return config.mutate.map((entry) => {
		const range = /^(.*):(\d+):(\d+)-(\d+):(\d+)$/.exec(entry);
		if (!range) return { file: entry };
		const [, file, fromLine, fromColumn, toLine, toColumn] = range;
		return { file, from: [+fromLine, +fromColumn], to: [+toLine, +toColumn] };
	});
}

const before = (a, b) => a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);

/** Whether a mutant lies in the set: results of code mutated once but no longer are left out. */
function inSet(set, file, { location: { start, end } }) {
	return set.some(
		(part) =>
			part.file === file &&
			(!part.from ||
				(before(part.from, [start.line, start.column]) && before([end.line, end.column], part.to))),
	);
}

/**
 * What the page needs from StrykerJS's record, for the mutants of the set that have a result: how
 * many, how many did not compile, each file's counts and every survivor. `settled` names the
 * mutants with another result (killed, or not compiling): a reason naming one of them is stale.
 */
function summarize(record, set) {
	const files = [];
	const survivors = [];
	const settled = new Set();
	let withResult = 0;
	let notCompiling = 0;
	for (const [file, { mutants: all, source }] of Object.entries(record.files).sort(([a], [b]) =>
		a.localeCompare(b),
	)) {
		const lines = source.split('\n');
		const describe = (m) => ({
			file,
			line: m.location.start.line,
			mutator: m.mutatorName,
			status: m.status,
			original: lines[m.location.start.line - 1].trim(),
			replacement: m.replacement ?? '',
		});
		const mutants = all.filter((m) => inSet(set, file, m) && !PENDING.has(m.status));
		if (mutants.length === 0) continue;
		withResult += mutants.length;
		notCompiling += mutants.filter((m) => m.status === 'CompileError').length;
		const counted = mutants.filter((m) => COUNTED.has(m.status));
		const killed = counted.filter((m) => KILLED.has(m.status));
		const left = counted.filter((m) => !KILLED.has(m.status));
		for (const m of mutants.filter((m) => !left.includes(m))) settled.add(mutantKey(describe(m)));
		files.push({ file, mutants: counted.length, killed: killed.length });
		survivors.push(
			...left.sort((a, b) => a.location.start.line - b.location.start.line).map(describe),
		);
	}
	return { summary: { withResult, notCompiling, files, survivors }, settled };
}

function percent(part, whole) {
	return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`;
}

function cell(text) {
	return String(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

/**
 * The page's text from the kept results (test/mutation/results.json), and what it found. `settled`,
 * known only right after a run, also makes a reason naming a killed mutant stale before the whole
 * set has a result.
 */
function renderDoc(results, notes, settled = new Set()) {
	const { run, withResult, notCompiling } = results;
	const killed = results.files.reduce((sum, f) => sum + f.killed, 0);
	const counted = results.files.reduce((sum, f) => sum + f.mutants, 0);
	const survivors = results.survivors.map((s) => ({
		...s,
		key: mutantKey(s),
		note: notes[mutantKey(s)],
	}));
	const unexplained = survivors.filter((s) => !s.note);
	const refused = `${notCompiling} of them refused by the type checker, as code that does not compile`;
	const complete = run.setMutants !== undefined && withResult >= run.setMutants;
	const progress =
		run.setMutants === undefined
			? `${withResult} mutants have a result (${refused}).`
			: complete
				? `Every one of the set's ${run.setMutants} mutants has a result (${refused}).`
				: `${withResult} of the set's ${run.setMutants} mutants have a result so far (${refused}); \`npm run mutation\` goes on from there.`;
	const text = [
		'# Mutation testing',
		'',
		'Written by `npm run mutation` (StrykerJS with its jest runner and TypeScript checker) from its results; do not edit by hand. Reasons for mutants no test can kill live in `docs/mutation-notes.json`. What is mutated, and why the rest is not, is in `stryker.config.mjs`.',
		'',
		`Last run: ${run.date}, ${run.node}, concurrency ${run.concurrency}, ${run.minutes.toFixed(0)} min on ${run.cores} cores${run.stopped ? ', stopped part-way' : ''}${run.reused === undefined ? '' : `, ${run.reused} results reused from earlier runs`}. ${progress} Mutation score (killed and timed out of the mutants with a result that compile): **${percent(killed, counted)}** (${killed} of ${counted}).`,
		'',
		'| File | Mutants | Killed | Survived | Score |',
		'| --- | ---: | ---: | ---: | ---: |',
		...results.files.map(
			(f) =>
				`| \`${f.file}\` | ${f.mutants} | ${f.killed} | ${f.mutants - f.killed} | ${percent(f.killed, f.mutants)} |`,
		),
		'',
		'## Surviving mutants',
		'',
		survivors.length === 0
			? 'None.'
			: '| Where | Mutator | Original line | Replacement | Why it survives |',
		...(survivors.length === 0 ? [] : ['| --- | --- | --- | --- | --- |']),
		...survivors.map(
			(s) =>
				`| \`${s.file}:${s.line}\` | ${s.mutator}${s.status === 'NoCoverage' ? ' (no test reaches it)' : ''} | \`${cell(s.original).slice(0, 90)}\` | \`${cell(s.replacement).slice(0, 90)}\` | ${s.note ? cell(s.note) : '**unexplained**'} |`,
		),
		'',
	].join('\n');
	// Reasons still wanted are those of survivors. One for a mutant that now has another result
	// (killed, or no longer compiling) is stale; so, once every mutant has a result, is one that
	// names no mutant at all (its code changed). Before that, it may name one not reached yet.
	const wanted = new Set(survivors.map((s) => s.key));
	const stale = Object.keys(notes).filter(
		(key) => !wanted.has(key) && (complete || settled.has(key) || lineGone(key)),
	);
	return { text, killed, counted, survivors, unexplained, stale };
}

/** The kept results, or nothing yet. */
function readResults() {
	return fs.existsSync(RESULTS) ? JSON.parse(fs.readFileSync(RESULTS, 'utf8')) : undefined;
}

/**
 * Runs StrykerJS, then keeps what the page needs from its record in test/mutation/results.json.
 * @returns the results and the mutants the record shows settled
 */
async function runAndKeep(args) {
	const concurrencyArg = args.indexOf('--concurrency');
	// A run of a part (--mutate) counts only its part's mutants: the set's size stays as the
	// last whole run counted it.
	const part = args.includes('--mutate') || args.some((arg) => arg.startsWith('--mutate='));
	const previous = readResults()?.run ?? {};
	const seen = await runStryker(args);
	const run = {
		node: seen.node,
		minutes: seen.minutes,
		stopped: seen.stopped,
		reused: seen.reused,
		setMutants: part ? previous.setMutants : seen.mutants,
		date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
		cores: os.cpus().length,
		concurrency: concurrencyArg >= 0 ? Number(args[concurrencyArg + 1]) : 2,
	};
	if (!fs.existsSync(RECORD)) fail(`StrykerJS left no record at ${RECORD}`);
	const record = JSON.parse(fs.readFileSync(RECORD, 'utf8'));
	const { summary, settled } = summarize(record, await mutatedSet());
	const results = { run, ...summary };
	fs.writeFileSync(RESULTS, `${JSON.stringify(results, null, '\t')}\n`);
	return { results, settled };
}

async function main() {
	const args = process.argv.slice(2);
	// --report-only: rewrite docs/mutation.md from the kept results (after editing the notes).
	// --check: rewrite nothing; fail when the page is not what the kept results and notes give.
	const reportOnly = args[0] === '--report-only';
	const check = args[0] === '--check';
	const { results, settled } =
		reportOnly || check ? { results: readResults(), settled: undefined } : await runAndKeep(args);
	if (!results)
		fail(`no results of a run at ${path.relative(root, RESULTS)} (npm run mutation makes them)`);
	const notes = fs.existsSync(NOTES) ? JSON.parse(fs.readFileSync(NOTES, 'utf8')) : {};
	const result = renderDoc(results, notes, settled);
	if (result.counted === 0) fail('no mutant of the set has a result: nothing was tested');
	const page = path.relative(root, OUTPUT);
	const problems = [
		...result.unexplained.map((s) => `a survivor without a reason: ${s.key}`),
		...result.stale.map(
			(key) => `a reason in docs/mutation-notes.json names no surviving mutant (remove it): ${key}`,
		),
	];
	if (check) {
		const current = fs.existsSync(OUTPUT) ? fs.readFileSync(OUTPUT, 'utf8') : '';
		if (current !== result.text)
			problems.unshift(
				`${page} is not what the kept results and reasons give: run node scripts/mutation.js --report-only and commit it`,
			);
	} else {
		fs.writeFileSync(OUTPUT, result.text);
	}
	process.stdout.write(
		`mutation: ${result.killed} of ${result.counted} killed (${percent(result.killed, result.counted)}); ${result.survivors.length} survived, ${result.unexplained.length} without a reason; ${page} ${check ? 'checked' : 'written'}\n`,
	);
	for (const problem of problems) process.stdout.write(`  ${problem}\n`);
	if (problems.length > 0) process.exitCode = 1;
}

if (require.main === module) main().catch((error) => fail(error.stack ?? String(error)));

module.exports = { summarize, mutatedSet, renderDoc };
