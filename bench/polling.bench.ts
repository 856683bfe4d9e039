import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { runScenario } from './scenarioProcess';
import type { TaskLooks } from './simulator';
import { Simulator } from './simulator';

/*
 * Polling at the service's pace: Adaptive against Fixed Interval (5 s, the fixed pollers' usual
 * rhythm) on the same tasks of varied real durations, each measured in this run, and a 429 storm
 * met by one node run (one shared back-off) against ten separate runs (a back-off each). Figures,
 * not verdicts: the expectations only check that every scenario did its work.
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

interface Scenario {
	name: string;
	items: number;
	lanes: number;
	/** What the scenario measures against a fixed poller, as written in the goals. */
	kind: 'nothing to learn' | 'similar lengths' | 'throughput' | 'drifting';
	/** Drifting durations that fall: the batch must end near the ideal, not only by the fixed poller. */
	faster?: boolean;
	/** How the durations are drawn, in words. */
	durations: string;
	/** Simulator settings for these durations, in seconds before scaling. */
	fromS?: number;
	toS?: number;
	listS?: number[];
}

/** A share in [0, 1) per submit order, spread evenly (the simulator's own sequence). */
const share = (order: number) => (((order + 1) * 2654435761) % 4294967296) / 4294967296;

/**
 * Where nothing can be learned both pollers poll at Initial Delay and then every Poll Interval
 * (5 s), each poll later by the answers' latency so far: a task finishing just after such a poll
 * is seen at it or an interval later by a timer's jitter, for either poller alike. Such a
 * duration moves 0.4 s past the poll, so the comparison measures the schedules, not the jitter.
 */
const clearOfPolls = (seconds: number) => {
	const poll = Math.round(seconds / 5) * 5;
	return seconds - poll > -0.1 && seconds - poll < 0.4 ? poll + 0.4 : seconds;
};

/** The throughput batch's durations, in seconds (the simulator's draws of 8–20 s). */
const throughputS = Array.from(
	{ length: 30 },
	(_, order) => 8 + Math.round(12_000 * share(order)) / 1000,
);

const SCENARIOS: Scenario[] = [
	{
		name: 'similar tasks',
		kind: 'similar lengths',
		items: 30,
		lanes: 10,
		durations: '18–24 s',
		fromS: 18,
		toS: 24,
	},
	{
		name: 'spread tasks, uniform',
		kind: 'nothing to learn',
		items: 20,
		lanes: 20,
		durations: '6–40 s, spread evenly',
		listS: Array.from({ length: 20 }, (_, order) => 6 + Math.round(34_000 * share(order)) / 1000),
	},
	{
		name: 'spread tasks, long-tailed',
		kind: 'nothing to learn',
		items: 20,
		lanes: 20,
		durations: 'from 6 s, Pareto-tailed (α 1.5, capped at 90 s)',
		listS: Array.from({ length: 20 }, (_, order) =>
			Math.min(90, Math.round(6 * Math.pow(1 - share(order), -1 / 1.5) * 10) / 10),
		),
	},
	{
		name: 'spread tasks, a few short among long',
		kind: 'nothing to learn',
		items: 20,
		lanes: 20,
		durations: '3 of 6–8 s among 17 of 30–36 s',
		listS: Array.from(
			{ length: 20 },
			(_, order) =>
				Math.round((order % 7 === 3 ? 6 + 2 * share(order) : 30 + 6 * share(order)) * 10) / 10,
		),
	},
	{
		name: 'throughput',
		kind: 'throughput',
		items: 30,
		lanes: 10,
		durations: '8–20 s',
		fromS: 8,
		toS: 20,
	},
	{
		name: 'falling durations',
		kind: 'drifting',
		faster: true,
		items: 30,
		lanes: 10,
		durations: '8–20 s, sent longest first',
		listS: [...throughputS].sort((a, b) => b - a),
	},
	{
		name: 'rising durations',
		kind: 'drifting',
		items: 30,
		lanes: 10,
		durations: '8–20 s, sent shortest first',
		listS: [...throughputS].sort((a, b) => a - b),
	},
	{
		name: 'a step down',
		kind: 'drifting',
		items: 30,
		lanes: 10,
		durations: '16–20 s for the first 15, then 8–12 s',
		listS: Array.from(
			{ length: 30 },
			(_, order) => (order < 15 ? 16 : 8) + Math.round(4_000 * share(order)) / 1000,
		),
	},
	{
		name: 'throughput, 100 tasks',
		kind: 'throughput',
		items: 100,
		lanes: 10,
		durations: '8–20 s',
		fromS: 8,
		toS: 20,
	},
];

interface Measured {
	/** Wall time and the ideal's, each the mean over the runs. */
	wallMs: number;
	ideal: number;
	/** Every task of every run. */
	delays: number[];
	queries: number;
	/** How much later each task was seen finished than in the fixed poller's run, over the runs. */
	later: number[];
	tasks: number;
}

/** Each goal of a scenario: its measured figure and whether it is met. */
function goals(scenario: Scenario, adaptive: Measured, fixed: Measured): string[] {
	const queries = adaptive.queries / fixed.queries;
	const median = quantile(adaptive.delays, 0.5) / 1000;
	const fixedMedian = quantile(fixed.delays, 0.5) / 1000;
	const wall = adaptive.wallMs / adaptive.ideal;
	const late = adaptive.later.filter((ms) => ms > LATE_SLACK_MS);
	const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
	switch (scenario.kind) {
		case 'nothing to learn':
			return [
				`no more queries than the fixed poller: ${adaptive.queries} vs ${fixed.queries}, ${verdict(adaptive.queries <= fixed.queries)}`,
				`median detection delay no worse than the fixed poller's (within 0.1 s): ${median.toFixed(2)} s vs ${fixedMedian.toFixed(2)} s, ${verdict(median <= fixedMedian + 0.1)}`,
			];
		case 'similar lengths':
			return [
				`median detection delay ≤ 0.5 s: ${median.toFixed(2)} s, ${verdict(median <= 0.5 * SCALE)}`,
				`≤ 2× the fixed poller's queries: ${queries.toFixed(2)}×, ${verdict(queries <= 2)}`,
			];
		case 'drifting':
			return [
				...(scenario.faster
					? [`wall ≤ 1.05× the ideal: ${wall.toFixed(3)}×, ${verdict(wall <= 1.05)}`]
					: []),
				`wall no longer than the fixed poller's (within 0.1 s): ${sec(adaptive.wallMs)} vs ${sec(fixed.wallMs)}, ${verdict(adaptive.wallMs <= fixed.wallMs + 100)}`,
				`no task seen finished later after its submit than the same task in the fixed poller's run (${LATE_SLACK_MS / 1000} s allowed for latency): ${late.length} of ${adaptive.tasks}${late.length ? ` (the latest by ${sec(Math.max(...late))})` : ''}, ${verdict(late.length === 0)}`,
			];
		case 'throughput':
			return [
				`wall ≤ 1.05× the ideal: ${wall.toFixed(3)}×, ${verdict(wall <= 1.05)}`,
				`≤ 2× the fixed poller's queries: ${queries.toFixed(2)}×, ${verdict(queries <= 2)}`,
			];
	}
}

test(
	'bench: adaptive polling against a fixed 5 s poller, and a 429 storm over ten lanes',
	async () => {
		const started = Date.now();
		const lines: string[] = [];
		const goalLines: string[] = [];
		const pollS = s(5);
		for (const scenario of SCENARIOS) {
			// Compared task by task with the fixed poller's run: kept clear of its polls.
			const clear = scenario.kind === 'nothing to learn' || scenario.kind === 'drifting';
			const listS = clear ? scenario.listS?.map(clearOfPolls) : scenario.listS;
			const simulator = listS
				? { taskDurationsMs: listS.map((seconds) => Math.round(s(seconds) * 1000)) }
				: {
						taskDurationMs: s(scenario.fromS ?? 0) * 1000,
						taskDurationSpreadMs: s((scenario.toS ?? 0) - (scenario.fromS ?? 0)) * 1000,
					};
			// Where nothing can be learned both pollers make the same polls, and whether a task that
			// finishes within a timer's jitter of a poll is seen at it or a Poll Interval later is
			// chance: each poller runs twice, in turn, on the same durations, and the figures pool both.
			const rounds = scenario.kind === 'nothing to learn' ? 2 : 1;
			const runs: Record<string, Run[]> = { fixed: [], adaptive: [] };
			for (let round = 0; round < rounds; round++) {
				for (const polling of ['fixed', 'adaptive']) {
					const outcome = await run(
						{
							polling,
							pollInterval: pollS,
							initialDelay: pollS,
							items: scenario.items,
							maxConcurrency: scenario.lanes,
						},
						simulator,
					);
					expect(outcome).toMatchObject({ items: scenario.items, withBinary: scenario.items });
					expect(outcome.tasks).toHaveLength(scenario.items);
					// Never a query before the spec's first 5 s.
					for (const task of outcome.tasks)
						expect(
							Math.min(...task.looks.map((look) => look.at - task.createdAt)),
						).toBeGreaterThanOrEqual(pollS * 1000 - 50);
					runs[polling].push(outcome);
				}
			}
			const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / rounds;
			const measured: Record<string, Measured> = {};
			for (const polling of ['fixed', 'adaptive']) {
				measured[polling] = {
					wallMs: mean(runs[polling].map((outcome) => outcome.wallMs)),
					ideal: mean(runs[polling].map((outcome) => idealMs(outcome.tasks, scenario.lanes))),
					delays: runs[polling].flatMap((outcome) => detectionDelays(outcome.tasks)),
					queries: runs[polling].reduce((sum, outcome) => sum + queriesOf(outcome.tasks), 0),
					later: runs[polling].flatMap((outcome, round) =>
						laterThanFixed(outcome.tasks, runs.fixed[round].tasks),
					),
					tasks: scenario.items * rounds,
				};
			}
			const fixed = measured.fixed;
			const durations = scenario.listS
				? scenario.durations
				: `${s(scenario.fromS ?? 0)}–${s(scenario.toS ?? 0)} s`;
			for (const polling of ['adaptive', 'fixed']) {
				const m = measured[polling];
				lines.push(
					`${scenario.name} (${scenario.items} items of ${durations}${scenario.lanes >= scenario.items ? ', all at once' : `, Max Concurrency ${scenario.lanes}`}${clear ? ", each clear of the fixed poller's polls" : ''}${rounds > 1 ? `; ${rounds} runs of each poller in turn, wall times their mean, the rest over both` : ''}), ${polling === 'fixed' ? `Fixed Interval ${pollS} s` : 'Adaptive'}: ` +
						`wall ${sec(m.wallMs)} = ${(m.wallMs / m.ideal).toFixed(3)}× the ideal ${sec(m.ideal)}; ` +
						`seen finished a median ${sec(quantile(m.delays, 0.5))} (p90 ${sec(quantile(m.delays, 0.9))}) after finishing; ` +
						`${m.queries} task queries = ${(m.queries / fixed.queries).toFixed(2)}× the fixed poller's`,
				);
			}
			for (const goal of goals(scenario, measured.adaptive, fixed))
				goalLines.push(`${scenario.name}, ${scenario.kind}: ${goal}`);
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

		const header = `Measured by the polling bench (${os.cpus().length} cores, node ${process.version}, time scale ${SCALE}${SCALE === 1 ? '' : ': every duration, interval and delay multiplied by it'}, ${sec(Date.now() - started)} in all).`;
		const report = [
			header,
			'',
			`Goals of Adaptive against the fixed poller in the same run${SCALE === 1 ? '' : ` (delays judged against the scaled bound, ${0.5 * SCALE} s)`}:`,
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
