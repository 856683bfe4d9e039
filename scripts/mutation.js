#!/usr/bin/env node
// npm run mutation: StrykerJS over the code that guards money (submits), keys (the request path)
// and cancels (the wait, the run's stop signal), then docs/mutation.md from its JSON report: the
// score per file and every mutant that survived, each with the one-line reason from
// docs/mutation-notes.json why no test can kill it. A survivor without a reason fails the run.
//
// StrykerJS 10 needs Node 22 or newer; the package itself supports Node 20, so the run uses the
// Node 24 the real-n8n suites install into the cache (npm run e2e:install) when this one is older.
// Arguments after `--` go to Stryker, e.g. `npm run mutation -- --mutate nodes/ProductImage/transport/retry.ts`.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { cacheDir, NODE_PACKAGE } = require('../test/e2e/lib/config');

const root = path.resolve(__dirname, '..');
const REPORT = path.join(root, 'reports', 'mutation', 'mutation.json');
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
			`StrykerJS needs Node 22 or newer and this is ${process.version}; no Node 24 in ${dir} (npm run e2e:install puts it there)`,
		);
	}
	return dir;
}

function runStryker(args) {
	const bin = nodeBinDir();
	const started = Date.now();
	const result = spawnSync(
		path.join(bin, 'node'),
		[
			path.join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'),
			'run',
			...args,
		],
		{
			cwd: root,
			stdio: 'inherit',
			env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
		},
	);
	if (result.status !== 0) fail(`stryker exited with ${result.status ?? result.signal}`);
	return {
		minutes: (Date.now() - started) / 60_000,
		node: spawnSync(path.join(bin, 'node'), ['--version'], { encoding: 'utf8' }).stdout.trim(),
	};
}

/** How a mutant is named in docs/mutation-notes.json: file, line, mutator and what it put there. */
function mutantKey(file, mutant) {
	return `${file}:${mutant.location.start.line} ${mutant.mutatorName} ${JSON.stringify(mutant.replacement ?? '')}`;
}

const KILLED = new Set(['Killed', 'Timeout']);
const COUNTED = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);

function percent(part, whole) {
	return whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`;
}

function cell(text) {
	return String(text).replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();
}

function writeDoc(report, notes, run) {
	const rows = [];
	const survivors = [];
	let killed = 0;
	let counted = 0;
	for (const [file, { mutants, source }] of Object.entries(report.files).sort(([a], [b]) =>
		a.localeCompare(b),
	)) {
		const lines = source.split('\n');
		const fileCounted = mutants.filter((m) => COUNTED.has(m.status));
		const fileKilled = fileCounted.filter((m) => KILLED.has(m.status));
		killed += fileKilled.length;
		counted += fileCounted.length;
		const left = fileCounted.filter((m) => !KILLED.has(m.status));
		rows.push(
			`| \`${file}\` | ${fileCounted.length} | ${fileKilled.length} | ${left.length} | ${percent(fileKilled.length, fileCounted.length)} |`,
		);
		for (const mutant of left.sort((a, b) => a.location.start.line - b.location.start.line)) {
			const key = mutantKey(file, mutant);
			survivors.push({
				key,
				file,
				mutant,
				original: lines[mutant.location.start.line - 1].trim(),
				note: notes[key],
			});
		}
	}
	const unexplained = survivors.filter((s) => !s.note);
	const text = [
		'# Mutation testing',
		'',
		'Written by `npm run mutation` (StrykerJS with its jest runner and TypeScript checker) from its report; do not edit by hand. Reasons for mutants no test can kill live in `docs/mutation-notes.json`.',
		'',
		`Last run: ${run.date}, ${run.node}, concurrency ${run.concurrency}, ${run.minutes.toFixed(0)} min on ${run.cores} cores. Mutation score (killed and timed out of all mutants that compile): **${percent(killed, counted)}** (${killed} of ${counted}).`,
		'',
		'| File | Mutants | Killed | Survived | Score |',
		'| --- | ---: | ---: | ---: | ---: |',
		...rows,
		'',
		'## Surviving mutants',
		'',
		survivors.length === 0
			? 'None.'
			: '| Where | Mutator | Original line | Replacement | Why it survives |',
		...(survivors.length === 0 ? [] : ['| --- | --- | --- | --- | --- |']),
		...survivors.map(
			(s) =>
				`| \`${s.file}:${s.mutant.location.start.line}\` | ${s.mutant.mutatorName}${s.mutant.status === 'NoCoverage' ? ' (no test reaches it)' : ''} | \`${cell(s.original).slice(0, 90)}\` | \`${cell(s.mutant.replacement ?? '').slice(0, 90)}\` | ${s.note ? cell(s.note) : '**unexplained**'} |`,
		),
		'',
	].join('\n');
	fs.writeFileSync(OUTPUT, text);
	return { killed, counted, survivors, unexplained };
}

function main() {
	const args = process.argv.slice(2);
	// --report-only: rewrite docs/mutation.md from the last run's report (after editing the notes).
	const reportOnly = args[0] === '--report-only';
	const runFile = path.join(path.dirname(REPORT), 'run.json');
	if (!reportOnly) {
		const concurrencyArg = args.indexOf('--concurrency');
		const run = {
			...runStryker(args),
			date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
			cores: os.cpus().length,
			concurrency: concurrencyArg >= 0 ? Number(args[concurrencyArg + 1]) : 2,
		};
		fs.writeFileSync(runFile, JSON.stringify(run));
	}
	if (!fs.existsSync(REPORT) || !fs.existsSync(runFile))
		fail(`no report of a run at ${path.relative(root, REPORT)}`);
	const report = JSON.parse(fs.readFileSync(REPORT, 'utf8'));
	const notes = fs.existsSync(NOTES) ? JSON.parse(fs.readFileSync(NOTES, 'utf8')) : {};
	if (Object.keys(report.files).length === 0)
		fail('the report holds no files: nothing was mutated');
	const result = writeDoc(report, notes, JSON.parse(fs.readFileSync(runFile, 'utf8')));
	process.stdout.write(
		`mutation: ${result.killed} of ${result.counted} killed (${percent(result.killed, result.counted)}); ${result.survivors.length} survived, ${result.unexplained.length} without a reason; ${path.relative(root, OUTPUT)} written\n`,
	);
	for (const s of result.unexplained)
		process.stdout.write(`  unexplained: ${s.key}   (${s.original})\n`);
	if (result.unexplained.length > 0) process.exitCode = 1;
}

main();
