import type { PollingOrder } from '../../bench/pollingOrders';
import { runWorkflow } from '../harness/engine';
import { currentVersionOptions } from '../harness/fixtures';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { runOnVirtualClock } from '../harness/virtualClock';

/*
 * An order of the polling benches waited for by the node itself: Generate and Wait over the
 * order's lanes in n8n's engine, against the simulator, on a clock the test moves (Check Interval
 * and First Check After 5 s). The schedule and the tasks' durations run on that one clock and every
 * request is instant, so the figures are the schedule's alone, whatever the machine's load. The
 * virtual-clock tests of the schedule and the polling bench both use it.
 */

const POLL_S = 5;

export interface Figures {
	/** The batch's end ÷ the ideal lanes: each busy from the start, each finish seen at once. */
	wall: number;
	fixedWall: number;
	/** Task queries ÷ the fixed poller's on the same order. */
	queries: number;
	/** How long after finishing a task was seen finished, in submit order. */
	delaysMs: number[];
	medianDelayMs: number;
	/** Tasks seen finished later after their submit than in the fixed poller's run. */
	later: number;
}

type Sim = ReturnType<ReturnType<typeof useSimulator>>;

/** The same lanes with no detection delay and no overhead: each task starts when a lane frees. */
function idealMs(durations: number[], lanes: number): number {
	const free = Array.from({ length: lanes }, () => 0);
	for (const duration of durations) {
		free.sort((a, b) => a - b);
		free[0] += duration;
	}
	return Math.max(...free);
}

/** Each task in submit order: its queries' times after its creation, and its duration. */
function looks(sim: Sim): Array<{ looks: number[]; durationMs: number }> {
	return [...sim.tasks.values()]
		.sort((a, b) => a.createdAt - b.createdAt)
		.map((task) => ({
			durationMs: task.durationMs,
			looks: sim.stats.requests
				.filter((r) => r.route === 'task' && r.path.endsWith(task.task_id))
				.map((r) => r.at - task.createdAt),
		}));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Call at the top of a test file: runs an order with each schedule and compares them. */
export function usePollingOrders(): (order: PollingOrder) => Promise<Figures> {
	const simulator = useSimulator();
	const run = async (order: PollingOrder, polling: 'adaptive' | 'fixed') => {
		const sim = simulator();
		sim.reset();
		sim.configure({ taskDurationsMs: order.seconds.map((s) => Math.round(s * 1000)) });
		let wallMs = 0;
		const result = await runOnVirtualClock(async () => {
			const started = Date.now();
			const ran = await runWorkflow({
				credentials: credentialsFor(sim),
				input: order.seconds.map((_, n) => ({ json: { prompt: `product ${n}` } })),
				nodes: [
					{
						parameters: {
							resource: 'image',
							operation: 'generateAndWait',
							prompt: '={{ $json.prompt }}',
							options: currentVersionOptions({
								polling,
								pollInterval: POLL_S,
								initialDelay: POLL_S,
								maxConcurrency: order.lanes,
								downloadImages: false,
							}),
						},
					},
				],
			});
			wallMs = Date.now() - started;
			return ran;
		});
		if (result.error || result.items.length !== order.seconds.length)
			throw new Error(`${order.name}, ${polling}: ${result.error?.message ?? 'items missing'}`);
		return { wallMs, tasks: looks(sim) };
	};
	return async (order) => {
		const fixed = await run(order, 'fixed');
		const adaptive = await run(order, 'adaptive');
		const ideal = idealMs(
			adaptive.tasks.map((task) => task.durationMs),
			order.lanes,
		);
		const seen = (task: { looks: number[]; durationMs: number }) =>
			task.looks.find((at) => at >= task.durationMs)!;
		const queries = (tasks: typeof fixed.tasks) =>
			tasks.reduce((sum, task) => sum + task.looks.length, 0);
		const delaysMs = adaptive.tasks.map((task) => seen(task) - task.durationMs);
		return {
			wall: adaptive.wallMs / ideal,
			fixedWall: fixed.wallMs / ideal,
			queries: queries(adaptive.tasks) / queries(fixed.tasks),
			delaysMs,
			medianDelayMs: median(delaysMs),
			later: adaptive.tasks.filter((task, n) => seen(task) > seen(fixed.tasks[n])).length,
		};
	};
}
