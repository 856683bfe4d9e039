import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { PollingOrder } from './pollingOrders';
import { ORDERS } from './pollingOrders';
import { runScenario } from './scenarioProcess';
import type { TaskLooks } from './simulator';
import { Simulator } from './simulator';

/*
 * Polling at the service's pace: Adaptive against Fixed Interval (5 s, the fixed pollers' usual
 * rhythm) on the same tasks, in every order the service finishes them (bench/pollingOrders.ts),
 * each measured in this run, and a 429 storm met by one node run (one shared back-off) against ten
 * separate runs (a back-off each). Each order's goals are printed with their figures; the
 * expectations only check that every scenario did its work.
 *
 * PRODUCT_IMAGE_BENCH_SCALE shortens every duration, poll interval and delay by one factor for a
 * quick run (the figures say which); PRODUCT_IMAGE_BENCH_WRITE_README=1
 * writes them into docs/polling.md, between its bench-figures markers.
 */

const SCALE = Number(process.env.PRODUCT_IMAGE_BENCH_SCALE ?? 1);
const WRITE_README = process.env.PRODUCT_IMAGE_BENCH_WRITE_README === '1';
const FIGURES_PAGE = path.resolve(__dirname, '..', 'docs', 'polling.md');
const START = '<!-- bench-figures:start -->';
const END = '<!-- bench-figures:end -->';
const API_KEY = 'bench-key-0123456789';
const s = (seconds: number) => Math.round(seconds * SCALE * 1000) / 1000;

let sim: Simulator;

beforeAll(async () => {
	sim = new Simulator();
	await sim.start({ apiKey: API_KEY, taskDurationMs: 50 });
});

afterAll(async () => {
	await sim?.close();
});

interface Run {
	wallMs: number;
	cpuMs: number;
	rssGrowth: number;
	heapRetained: number;
	items: number;
	withBinary: number;
	storedById: number;
	tasks: TaskLooks[];
}

/** One Generate and Wait run in a fresh node process; `during` runs once the measured part starts. */
async function run(
	settings: Record<string, unknown>,
	simulator: Record<string, unknown>,
	during?: () => void,
	nodeFlags: string[] = [],
): Promise<Run> {
	const result = await runScenario(
		{ scenario: 'polling', repeat: 1, ...settings, baseUrl: sim.baseUrl, apiKey: sim.apiKey },
		{
			beforeGo: async () => {
				await sim.reset();
				await sim.configure({ taskDurationSpreadMs: 0, ...simulator });
			},
			afterGo: during,
			nodeFlags,
		},
	);
	const tasks = await sim.taskLooks();
	// The next scenario's warm-up then waits for a short task, not one of these durations.
	await sim.reset();
	const [figures] = result.runs;
	return {
		wallMs: figures.wallMs,
		cpuMs: figures.cpuMs,
		rssGrowth: figures.rssGrowth,
		heapRetained: figures.heapRetained,
		...(result.facts as { items: number; withBinary: number; storedById: number }),
		tasks,
	};
}

function quantile(values: number[], q: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** How long after finishing each task was seen finished (the first answered query after it). */
function detectionDelays(tasks: TaskLooks[]): number[] {
	return tasks.map((task) => {
		const done = task.createdAt + task.durationMs;
		const seen = task.looks.find((look) => look.at >= done && look.status === 200);
		if (!seen) throw new Error(`task ${task.task_id} was never seen finished`);
		return seen.at - done;
	});
}

/**
 * How much later after its submit each task of a run was seen finished than the task of the same
 * duration (the same place in the submit order) in the fixed poller's run.
 */
function laterThanFixed(tasks: TaskLooks[], fixedTasks: TaskLooks[]): number[] {
	const bySubmit = (list: TaskLooks[]) => [...list].sort((a, b) => a.createdAt - b.createdAt);
	const seen = (list: TaskLooks[]) => {
		const delays = detectionDelays(list);
		return list.map((task, index) => task.durationMs + delays[index]);
	};
	const fixedSeen = seen(bySubmit(fixedTasks));
	return seen(bySubmit(tasks)).map((at, order) => at - fixedSeen[order]);
}

/** The same lanes with no detection delay and no overhead: each task starts when a lane frees. */
function idealMs(tasks: TaskLooks[], lanes: number): number {
	const free = Array.from({ length: lanes }, () => 0);
	for (const task of [...tasks].sort((a, b) => a.createdAt - b.createdAt)) {
		free.sort((a, b) => a - b);
		free[0] += task.durationMs;
	}
	return Math.max(...free);
}

const queriesOf = (tasks: TaskLooks[]) => tasks.reduce((sum, task) => sum + task.looks.length, 0);
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** Two runs' polls of a task differ by the answers' latency and late timers: this much is allowed. */
const LATE_SLACK_MS = 250;

interface Measured {
	wallMs: number;
	ideal: number;
	delays: number[];
	queries: number;
	/** How much later each task was seen finished than in the fixed poller's run. */
	later: number[];
}

function measured(outcome: Run, lanes: number, fixed: Run): Measured {
	return {
		wallMs: outcome.wallMs,
		ideal: idealMs(outcome.tasks, lanes),
		delays: detectionDelays(outcome.tasks),
		queries: queriesOf(outcome.tasks),
		later: laterThanFixed(outcome.tasks, fixed.tasks),
	};
}

/** Adaptive's goals, the same in every order, each with its measured figure and whether it is met. */
function goals(order: PollingOrder, adaptive: Measured, fixed: Measured): string[] {
	const queries = adaptive.queries / fixed.queries;
	const median = quantile(adaptive.delays, 0.5) / 1000;
	const wall = adaptive.wallMs / adaptive.ideal;
	const late = adaptive.later.filter((ms) => ms > LATE_SLACK_MS);
	const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
	return [
		`wall ≤ 1.05× the ideal lanes: ${wall.toFixed(3)}× (the fixed poller ${(fixed.wallMs / fixed.ideal).toFixed(3)}×), ${verdict(wall <= 1.05)}`,
		`≤ 1.5× the fixed poller's queries: ${queries.toFixed(2)}×, ${verdict(queries <= 1.5)}`,
		`no task seen finished later after its submit than the same task in the fixed poller's run (${LATE_SLACK_MS / 1000} s allowed for latency): ${late.length} of ${adaptive.later.length}${late.length ? ` (the latest by ${sec(Math.max(...late))})` : ''}, ${verdict(late.length === 0)}`,
		...(order.similar
			? [
					`median detection delay ≤ ${0.25 * SCALE} s: ${median.toFixed(2)} s, ${verdict(median <= 0.25 * SCALE)}`,
				]
			: []),
	];
}

const load = () =>
	os
		.loadavg()
		.map((value) => value.toFixed(1))
		.join(', ');

test(
	'bench: adaptive polling against a fixed 5 s poller, and a 429 storm over ten lanes',
	async () => {
		const started = Date.now();
		const lines: string[] = [];
		const goalLines: string[] = [];
		const pollS = s(5);
		const loadBefore = load();
		for (const order of ORDERS) {
			const simulator = {
				taskDurationsMs: order.seconds.map((seconds) => Math.round(s(seconds) * 1000)),
			};
			const runs: Record<string, Run> = {};
			for (const polling of ['fixed', 'adaptive']) {
				const outcome = await run(
					{
						polling,
						pollInterval: pollS,
						initialDelay: pollS,
						items: order.seconds.length,
						maxConcurrency: order.lanes,
					},
					simulator,
				);
				expect(outcome).toMatchObject({
					items: order.seconds.length,
					withBinary: order.seconds.length,
				});
				expect(outcome.tasks).toHaveLength(order.seconds.length);
				// Never a query before the spec's first 5 s.
				for (const task of outcome.tasks)
					expect(
						Math.min(...task.looks.map((look) => look.at - task.createdAt)),
					).toBeGreaterThanOrEqual(pollS * 1000 - 50);
				runs[polling] = outcome;
			}
			const fixed = measured(runs.fixed, order.lanes, runs.fixed);
			const adaptive = measured(runs.adaptive, order.lanes, runs.fixed);
			for (const [label, m] of [
				['Adaptive', adaptive],
				[`Fixed Interval ${pollS} s`, fixed],
			] as const)
				lines.push(
					`${order.name} (${order.seconds.length} items of ${order.durations}${order.lanes >= order.seconds.length ? '' : `, Max Concurrency ${order.lanes}`}), ${label}: ` +
						`wall ${sec(m.wallMs)} = ${(m.wallMs / m.ideal).toFixed(3)}× the ideal ${sec(m.ideal)}; ` +
						`seen finished a median ${sec(quantile(m.delays, 0.5))} (p90 ${sec(quantile(m.delays, 0.9))}) after finishing; ` +
						`${m.queries} task queries = ${(m.queries / fixed.queries).toFixed(2)}× the fixed poller's`,
				);
			for (const goal of goals(order, adaptive, fixed)) goalLines.push(`${order.name}: ${goal}`);
		}

		// A storm: for 4 s every task query answers 429 with Retry-After 1.
		const storm: Record<string, number> = {};
		for (const [label, separateRuns] of [
			['one node run of 10 items (one shared back-off)', false],
			['10 node runs of 1 item (a back-off each)', true],
		] as const) {
			const outcome = await run(
				{
					polling: 'fixed',
					pollInterval: s(1),
					initialDelay: s(1),
					items: 10,
					maxConcurrency: 10,
					separateRuns,
				},
				{ taskDurationMs: s(8) * 1000 },
				() => {
					setTimeout(
						() =>
							void sim.addFault({
								route: 'task',
								status: 429,
								retryAfter: String(s(1)),
								forMs: s(4) * 1000,
							}),
						s(1.5) * 1000,
					);
				},
			);
			expect(outcome).toMatchObject({ items: 10, withBinary: 10 });
			const rejected = outcome.tasks.reduce(
				(sum, task) => sum + task.looks.filter((look) => look.status === 429).length,
				0,
			);
			storm[label] = rejected;
			lines.push(
				`429 storm (${s(4)} s of 429 with Retry-After ${s(1)} on every task query), ${label}: ${rejected} answers 429, wall ${sec(outcome.wallMs)}`,
			);
		}

		// Scale: 100 and 500 items, images streamed to the filesystem store; the last run again with
		// V8's old space capped, to tell memory the run needs from garbage V8 had not yet collected.
		const scale: Array<[number, string, Run]> = [];
		for (const [items, flags] of [
			[100, []],
			[500, []],
			[500, ['--max-old-space-size=96']],
		] as Array<[number, string[]]>) {
			const outcome = await run(
				{
					polling: 'fixed',
					pollInterval: 0.2,
					initialDelay: 0.2,
					items,
					maxConcurrency: 25,
					binaryMode: 'filesystem',
					memory: true,
				},
				{ taskDurationMs: 500, imagesPerTask: 2 },
				undefined,
				flags,
			);
			expect(outcome).toMatchObject({
				items: items * 2,
				withBinary: items * 2,
				storedById: items * 2,
			});
			scale.push([items, flags.length ? ` with ${flags.join(' ')}` : '', outcome]);
		}
		for (const [items, capped, outcome] of scale) {
			lines.push(
				`scale, ${items} items × 2 images${capped}, Max Concurrency 25, filesystem binary mode: peak RSS growth ${(outcome.rssGrowth / 1024 / 1024).toFixed(1)} MiB ` +
					`(${(outcome.rssGrowth / scale[0][2].rssGrowth).toFixed(2)}× the 100-item run's), heap still held after the run and a gc ${(outcome.heapRetained / 1024 / 1024).toFixed(1)} MiB ` +
					`(${(outcome.heapRetained / 1024 / (items * 2)).toFixed(1)} KiB per output item), node process CPU ${(outcome.cpuMs / items).toFixed(1)} ms per item, wall ${sec(outcome.wallMs)}`,
			);
		}

		const header = `Measured by the polling bench (${os.cpus().length} cores, node ${process.version}, load average ${loadBefore} at the start and ${load()} at the end, time scale ${SCALE}${SCALE === 1 ? '' : ': every duration, interval and delay multiplied by it'}, ${sec(Date.now() - started)} in all).`;
		const report = [
			header,
			'',
			`Goals of Adaptive against the fixed poller in the same run, in every order${SCALE === 1 ? '' : ` (delays judged against the scaled bound, ${0.25 * SCALE} s)`}:`,
			'',
			...goalLines.map((line) => `- ${line}`),
			'',
			'Figures:',
			'',
			...lines.map((line) => `- ${line}`),
		].join('\n');
		process.stdout.write(`\n${report}\n`);
		if (WRITE_README) {
			const text = readFileSync(FIGURES_PAGE, 'utf8');
			const from = text.indexOf(START);
			const to = text.indexOf(END);
			if (from < 0 || to < from)
				throw new Error(`docs/polling.md has no ${START} … ${END} section`);
			writeFileSync(
				FIGURES_PAGE,
				`${text.slice(0, from)}${START}\n<!-- Written by the bench; edits here are overwritten. -->\n${report}\n${text.slice(to)}`,
			);
		}
	},
	40 * 60_000,
);
