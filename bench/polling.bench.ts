import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { usePollingOrders } from '../test/unit/pollingOrders';
import { ORDERS } from './pollingOrders';
import { runScenario } from './scenarioProcess';
import type { TaskLooks } from './simulator';
import { Simulator } from './simulator';

/*
 * Polling at the service's pace: Adaptive against Fixed Interval (5 s, the fixed pollers' usual
 * rhythm) on the same tasks, in every order the service finishes them (bench/pollingOrders.ts),
 * the node waiting in n8n's engine on a clock the bench moves (test/unit/pollingOrders.ts), so
 * those figures are the schedule's, whatever the machine's load; then, on real time, a 429 storm
 * met by one node run (one shared back-off) against ten separate runs (a back-off each), and
 * memory at scale. Each order's goals are printed with their figures; the expectations only check
 * that every scenario did its work. PRODUCT_IMAGE_BENCH_WRITE_README=1 writes the figures into
 * docs/polling.md, between its bench-figures markers.
 */

const WRITE_README = process.env.PRODUCT_IMAGE_BENCH_WRITE_README === '1';
const FIGURES_PAGE = path.resolve(__dirname, '..', 'docs', 'polling.md');
const START = '<!-- bench-figures:start -->';
const END = '<!-- bench-figures:end -->';
const API_KEY = 'bench-key-0123456789';
const compareOrder = usePollingOrders();

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

const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const quantile = (values: number[], q: number) =>
	[...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

/** Adaptive's goals, the same in every order, each with its measured figure and whether it is met. */
async function orderLines(): Promise<{ goals: string[]; figures: string[] }> {
	const goals: string[] = [];
	const figures: string[] = [];
	for (const order of ORDERS) {
		const f = await compareOrder(order);
		const median = f.medianDelayMs / 1000;
		goals.push(
			`${order.name}: wall ≤ 1.05× the ideal lanes: ${f.wall.toFixed(3)}× (the fixed poller ${f.fixedWall.toFixed(3)}×), ${verdict(f.wall <= 1.05)}`,
			`${order.name}: ≤ 1.5× the fixed poller's queries: ${f.queries.toFixed(2)}×, ${verdict(f.queries <= 1.5)}`,
			`${order.name}: no task seen finished later after its submit than in the fixed poller's run: ${f.later} of ${order.seconds.length} later, ${verdict(f.later === 0)}`,
			...(order.similar
				? [
						`${order.name}: median detection delay ≤ 0.25 s: ${median.toFixed(2)} s, ${verdict(median <= 0.25)}`,
					]
				: []),
		);
		figures.push(
			`${order.name} (${order.seconds.length} items of ${order.durations}, Max Concurrency ${order.lanes}): Adaptive ${f.wall.toFixed(3)}× the ideal lanes, the fixed poller ${f.fixedWall.toFixed(3)}×; ${f.queries.toFixed(2)}× the fixed poller's task queries; seen finished a median ${sec(f.medianDelayMs)} (p90 ${sec(quantile(f.delaysMs, 0.9))}) after finishing`,
		);
	}
	return { goals, figures };
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
		const loadBefore = load();
		const { goals, figures: lines } = await orderLines();
		const loadAfterOrders = load();

		// A storm: for 4 s every task query answers 429 with Retry-After 1.
		const storm: Record<string, number> = {};
		for (const [label, separateRuns] of [
			['one node run of 10 items (one shared back-off)', false],
			['10 node runs of 1 item (a back-off each)', true],
		] as const) {
			const outcome = await run(
				{
					polling: 'fixed',
					pollInterval: 1,
					initialDelay: 1,
					items: 10,
					maxConcurrency: 10,
					separateRuns,
				},
				{ taskDurationMs: 8000 },
				() => {
					setTimeout(
						() =>
							void sim.addFault({
								route: 'task',
								status: 429,
								retryAfter: '1',
								forMs: 4000,
							}),
						1500,
					);
				},
			);
			expect(outcome).toMatchObject({ items: 10, withBinary: 10 });
			const rejected = outcome.tasks.reduce(
				(sum, task) => sum + task.looks.filter((look) => look.status === 429).length,
				0,
			);
			// Polls that all missed the storm would leave this line measuring nothing.
			expect(rejected).toBeGreaterThan(0);
			storm[label] = rejected;
			lines.push(
				`429 storm (4 s of 429 with Retry-After 1 on every task query), ${label}: ${rejected} answers 429, wall ${sec(outcome.wallMs)}`,
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

		const header = `Measured by the polling bench (${os.cpus().length} cores, node ${process.version}, ${sec(Date.now() - started)} in all). The orders ran on the virtual clock (load average ${loadBefore} before them and ${loadAfterOrders} after: their figures do not depend on it); the storm and scale lines on real time (load average ${load()} at the end).`;
		const report = [
			header,
			'',
			'Goals of Adaptive against the fixed poller of the same Check Interval (5 s), in every order:',
			'',
			...goals.map((line) => `- ${line}`),
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
