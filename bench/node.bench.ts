import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Figures } from './scenarioProcess';
import { runScenario } from './scenarioProcess';
import type { TaskFacts } from './simulator';
import { Simulator } from './simulator';

/*
 * Figures, not verdicts: every figure is printed next to a baseline measured in this same run, so
 * a slow or busy machine moves both. The expectations below only check that each scenario did
 * what it claims (bytes, items, overlap), never how fast or how small it was.
 *
 * Three kinds of process: this one (orchestration and the report), the simulator host, and fresh
 * scenario processes that run the node.
 */

const MiB = 1024 * 1024;
const DOWNLOAD_BYTES = 64 * MiB;
const UPLOAD_BYTES = 32 * MiB;
const ITEMS = 8;
// Wall time under other load and the allocator's timing both wander: figures are medians of three.
const REPEAT = 3;
const TASK_MS_CONCURRENCY = 1000;
// Just under 5 s, so a 5 s poll interval sees the task done on its second query, not its third.
const TASK_MS_POLLING = 4900;
const API_KEY = 'bench-key-0123456789';
const REPORT = path.resolve(__dirname, '..', 'test-results', 'bench.md');

interface Outcome {
	/** The run the table shows: the median by RSS growth, CPU time or wall time, as the section compares. */
	figures: Figures;
	runs: Figures[];
	facts: Record<string, unknown>;
}

function median(runs: Figures[], by: 'wallMs' | 'rssGrowth' | 'cpuMs'): Figures {
	const sorted = [...runs].sort((a, b) => a[by] - b[by]);
	return sorted[Math.floor(sorted.length / 2)];
}

let sim: Simulator;
let childTmp: string;

beforeAll(async () => {
	sim = new Simulator();
	await sim.start({ apiKey: API_KEY, taskDurationMs: 50, maxUploadBytes: 96 * MiB });
	// The children's binary stores (filesystem mode) land here and go with it.
	childTmp = mkdtempSync(path.join(os.tmpdir(), 'product-image-bench-'));
});

afterAll(async () => {
	await sim?.close();
	if (childTmp) rmSync(childTmp, { recursive: true, force: true });
});

/** Runs one scenario in a fresh node process; `beforeGo` runs between its warm-up and its measured part. */
async function scenario(
	settings: Record<string, unknown>,
	beforeGo: () => Promise<unknown> = async () => {},
	by: 'wallMs' | 'cpuMs' = 'wallMs',
): Promise<Outcome> {
	const { runs, facts } = await runScenario(
		{ ...settings, baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		{ beforeGo, env: { ...process.env, TMPDIR: childTmp } },
	);
	return { figures: median(runs, by), runs, facts };
}

/**
 * Memory scenarios repeat in fresh processes, not inside one: a second run in the same process
 * reuses pages the first left resident and reads near zero.
 */
async function freshRuns(
	times: number,
	settings: Record<string, unknown>,
	check: (outcome: Outcome) => Promise<void>,
): Promise<Outcome> {
	const runs: Figures[] = [];
	let facts: Outcome['facts'] = {};
	for (let run = 0; run < times; run++) {
		const outcome = await scenario({ ...settings, memory: true });
		await check(outcome);
		runs.push(...outcome.runs);
		facts = outcome.facts;
	}
	return { figures: median(runs, 'rssGrowth'), runs, facts };
}

/** Most tasks the service had running at one moment. */
function tasksInFlight(tasks: TaskFacts[]): number {
	const edges = tasks.flatMap((task) => [
		{ at: task.createdAt, step: 1 },
		{ at: task.createdAt + task.durationMs, step: -1 },
	]);
	edges.sort((a, b) => a.at - b.at || a.step - b.step);
	let running = 0;
	let most = 0;
	for (const edge of edges) most = Math.max(most, (running += edge.step));
	return most;
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const ratio = (value: number) => `${value.toFixed(2)}×`;

function table(head: string[], rows: string[][]): string {
	const widths = head.map((cell, column) =>
		Math.max(cell.length, ...rows.map((row) => row[column].length)),
	);
	const line = (cells: string[]) =>
		`| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [line(head), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

test('bench: download and upload memory, concurrency, polling cost', async () => {
	const started = Date.now();
	const loadBefore = os.loadavg();
	const sections: string[] = [];

	// 1. Download memory
	const large = await sim.seed(DOWNLOAD_BYTES, 'large.png');
	const small = await sim.seed(4096, 'small.png');
	const downloads: Array<[string, Outcome]> = [];
	for (const [label, settings] of [
		[
			'node image/download, filesystem binary mode',
			{ scenario: 'download-node', binaryMode: 'filesystem' },
		],
		[
			'node image/download, memory binary mode',
			{ scenario: 'download-node', binaryMode: 'memory' },
		],
		['baseline: fetch(url).arrayBuffer(), held', { scenario: 'download-baseline' }],
	] as const) {
		const outcome = await freshRuns(
			REPEAT,
			{ ...settings, largeUrl: large.url, smallUrl: small.url },
			async ({ facts }) => {
				expect(facts).toMatchObject({ items: 1, bytes: DOWNLOAD_BYTES, sha256: large.sha256 });
			},
		);
		downloads.push([label, outcome]);
	}
	expect(downloads[0][1].facts.stored).toBe('by id');
	expect(downloads[1][1].facts.stored).toBe('inline base64');
	const downloadBaseline = downloads[2][1].figures.rssGrowth;
	sections.push(
		`### 1. Download memory: ${mib(DOWNLOAD_BYTES)} image/png from /v1/open/media/…, median of ${REPEAT}\n\n` +
			table(
				[
					'scenario',
					'peak RSS growth',
					'all runs (MiB)',
					'÷ file size',
					'÷ baseline',
					'peak from',
					'wall',
				],
				downloads.map(([label, { figures, runs }]) => [
					label,
					mib(figures.rssGrowth),
					runs.map((run) => (run.rssGrowth / MiB).toFixed(1)).join(' / '),
					ratio(figures.rssGrowth / DOWNLOAD_BYTES),
					ratio(figures.rssGrowth / downloadBaseline),
					figures.peakSource,
					seconds(figures.wallMs),
				]),
			),
	);

	// 2. Concurrency
	const concurrency: Array<[number, Outcome, number, number]> = [];
	for (const maxConcurrency of [1, ITEMS]) {
		await sim.reset();
		const outcome = await scenario(
			{
				scenario: 'generate-wait',
				items: ITEMS,
				maxConcurrency,
				pollInterval: 0.5,
				repeat: REPEAT,
			},
			async () => {
				await sim.reset();
				await sim.configure({ taskDurationMs: TASK_MS_CONCURRENCY });
			},
		);
		expect(outcome.facts).toMatchObject({ items: ITEMS, withBinary: ITEMS });
		const stats = await sim.stats();
		expect(stats.submitsAccepted).toBe(ITEMS * REPEAT);
		const inFlight = tasksInFlight(await sim.tasks());
		expect(inFlight).toBe(maxConcurrency);
		concurrency.push([maxConcurrency, outcome, inFlight, (stats.byRoute.task ?? 0) / REPEAT]);
	}
	const serialWall = concurrency[0][1].figures.wallMs;
	sections.push(
		`### 2. Concurrency: ${ITEMS} items of Generate and Wait, tasks of ${TASK_MS_CONCURRENCY} ms, poll interval 0.5 s, median of ${REPEAT}\n\n` +
			table(
				[
					'maxConcurrency',
					'wall',
					'all runs (s)',
					'speed-up vs 1',
					'ideal',
					'tasks in flight (service)',
					'task queries per run',
					'CPU',
				],
				concurrency.map(([limit, { figures, runs }, inFlight, queries]) => [
					String(limit),
					seconds(figures.wallMs),
					runs.map((run) => (run.wallMs / 1000).toFixed(2)).join(' / '),
					ratio(serialWall / figures.wallMs),
					ratio(limit),
					String(inFlight),
					String(queries),
					`${figures.cpuMs.toFixed(0)} ms`,
				]),
			),
	);

	// 3. Polling cost
	const polling: Array<[string, Outcome, number[] | undefined]> = [];
	for (const pollInterval of [0.5, 5]) {
		await sim.reset();
		const outcome = await scenario(
			// Fixed Interval: Adaptive would poll a lone task of this length once at either interval.
			{
				scenario: 'generate-wait',
				items: 1,
				maxConcurrency: 1,
				polling: 'fixed',
				pollInterval,
				repeat: REPEAT,
			},
			async () => {
				await sim.reset();
				await sim.configure({ taskDurationMs: TASK_MS_POLLING });
			},
			'cpuMs',
		);
		expect(outcome.facts).toMatchObject({ items: 1, withBinary: 1 });
		const queries = (await sim.tasks()).map((task) => task.queries);
		expect(queries).toHaveLength(REPEAT);
		expect(Math.min(...queries)).toBeGreaterThan(0);
		polling.push([`pollInterval ${pollInterval} s`, outcome, queries]);
	}
	await sim.reset();
	const idle = await scenario(
		{ scenario: 'idle', idleMs: TASK_MS_POLLING, repeat: REPEAT },
		async () => {},
		'cpuMs',
	);
	polling.push(['baseline: same process idle, no workflow', idle, undefined]);
	// The figure below divides by the queries the shorter interval adds: there must be some.
	expect(Math.min(...polling[0][2]!)).toBeGreaterThan(Math.max(...polling[1][2]!));
	const cpuPerSecond = (figures: Figures) => figures.cpuMs / (figures.wallMs / 1000);
	const totalOf = (counts: number[]) => counts.reduce((sum, count) => sum + count, 0);
	const slowPoll = cpuPerSecond(polling[1][1].figures);
	sections.push(
		`### 3. Polling cost: one item, a task of ${TASK_MS_POLLING} ms, initial delay 0, median of ${REPEAT} by CPU\n\n` +
			table(
				[
					'scenario',
					'wall',
					'task queries (each run)',
					'CPU',
					'CPU ms per s',
					'all runs (CPU ms per s)',
					'÷ pollInterval 5 s',
				],
				polling.map(([label, { figures, runs }, queries]) => [
					label,
					seconds(figures.wallMs),
					queries === undefined ? '-' : queries.join(' / '),
					`${figures.cpuMs.toFixed(0)} ms`,
					cpuPerSecond(figures).toFixed(1),
					runs.map((run) => cpuPerSecond(run).toFixed(1)).join(' / '),
					ratio(cpuPerSecond(figures) / slowPoll),
				]),
			) +
			`\n\nTask queries per wait, 0.5 s vs 5 s: ${ratio(totalOf(polling[0][2]!) / totalOf(polling[1][2]!))}. ` +
			// Both waits share the fixed cost (engine, submit, result download); the difference is the polling.
			`CPU per extra query: ${(
				(polling[0][1].figures.cpuMs - polling[1][1].figures.cpuMs) /
				((totalOf(polling[0][2]!) - totalOf(polling[1][2]!)) / REPEAT)
			).toFixed(2)} ms`,
	);

	// 4. Upload memory
	const uploads: Array<[string, Outcome]> = [];
	for (const [label, name] of [
		['node image/upload, memory binary mode (item holds base64)', 'upload-node'],
		['node image/upload, filesystem binary mode (store holds the file)', 'upload-node-filesystem'],
		['baseline: fetch + FormData + Blob of a held Buffer', 'upload-baseline'],
	] as const) {
		await sim.reset();
		const source =
			name === 'upload-node-filesystem' ? await sim.seed(UPLOAD_BYTES, 'source.png') : undefined;
		const smallSource =
			name === 'upload-node-filesystem' ? await sim.seed(4096, 'small.png') : undefined;
		const outcome = await freshRuns(
			REPEAT,
			{
				scenario: name,
				uploadBytes: UPLOAD_BYTES,
				sourceUrl: source?.url,
				sourceSha256: source?.sha256,
				smallUrl: smallSource?.url,
			},
			async ({ facts }) => {
				expect(facts).toMatchObject({ items: 1, bytes: UPLOAD_BYTES });
				const stored = await sim.upload(String(facts.uploadId));
				expect(stored).toEqual({
					bytes: UPLOAD_BYTES,
					sha256: facts.sha256,
					contentType: 'image/png',
				});
			},
		);
		uploads.push([label, outcome]);
	}
	await sim.reset();
	const uploadBaseline = uploads[2][1].figures.rssGrowth;
	sections.push(
		`### 4. Upload memory: ${mib(UPLOAD_BYTES)} binary, image/upload, median of ${REPEAT}\n\n` +
			table(
				[
					'scenario',
					'peak RSS growth',
					'all runs (MiB)',
					'÷ file size',
					'÷ baseline',
					'peak from',
					'wall',
				],
				uploads.map(([label, { figures, runs }]) => [
					label,
					mib(figures.rssGrowth),
					runs.map((run) => (run.rssGrowth / MiB).toFixed(1)).join(' / '),
					ratio(figures.rssGrowth / UPLOAD_BYTES),
					ratio(figures.rssGrowth / uploadBaseline),
					figures.peakSource,
					seconds(figures.wallMs),
				]),
			),
	);

	const loadAfter = os.loadavg();
	const header =
		`## Product Image node bench, ${new Date(started).toISOString()}\n\n` +
		`node ${process.version}, ${os.cpus().length} CPUs, load average ${loadBefore[0].toFixed(2)} before, ` +
		`${loadAfter[0].toFixed(2)} after, ${seconds(Date.now() - started)} in all. ` +
		'Scenarios run in node processes of their own, after a warm-up run; memory figures are the median of three ' +
		'fresh processes, time and CPU figures the median of three runs in one. RSS growth: peak RSS of the measured ' +
		'run (process peak reset just before it) minus the RSS after gc; "peak from" says how the peak was read.';
	const report = `${[header, ...sections].join('\n\n')}\n`;
	process.stdout.write(`\n${report}\n`);
	mkdirSync(path.dirname(REPORT), { recursive: true });
	writeFileSync(REPORT, report);
});
