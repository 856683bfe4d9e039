import type { PollingMode } from '../../nodes/ProductImage/helpers/pollSchedule';
import {
	DurationModel,
	nextPollIn,
	rhythmAfterPoll,
} from '../../nodes/ProductImage/helpers/pollSchedule';

/*
 * A batch of Generate and Wait items on a clock this file moves: each of `lanes` lanes submits its
 * next task once it has seen its last one finished and fetched it, and polls it as the node's wait
 * does (Initial Delay, then when the schedule says, learning from every answer). Every request
 * takes `LATENCY_MS`, the service reading it halfway.
 */

const LATENCY_MS = 40;
const POLL_MS = 5_000;

interface TaskRun {
	createdAt: number;
	durationMs: number;
	/** When the service read each query about it, on its clock. */
	looks: number[];
}

interface BatchRun {
	wallMs: number;
	tasks: TaskRun[];
}

class Clock {
	now = 0;
	private queue: Array<{ at: number; seq: number; run: () => void }> = [];
	private seq = 0;
	after(ms: number, run: () => void): void {
		this.queue.push({ at: this.now + Math.max(0, ms), seq: this.seq++, run });
	}
	runAll(): void {
		while (this.queue.length) {
			this.queue.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.queue.shift()!;
			this.now = next.at;
			next.run();
		}
	}
}

function runBatch(durations: number[], lanes: number, mode: PollingMode): BatchRun {
	const clock = new Clock();
	const model = new DurationModel();
	const tasks: TaskRun[] = [];
	const half = LATENCY_MS / 2;
	let last = 0;
	const submit = () => {
		const index = tasks.length;
		if (index >= durations.length) return;
		const task: TaskRun = { createdAt: 0, durationMs: durations[index], looks: [] };
		tasks.push(task);
		clock.after(half, () => {
			task.createdAt = clock.now;
			clock.after(half, () => follow(`task-${index}`, task));
		});
	};
	const follow = (taskId: string, task: TaskRun) => {
		const startedAt = clock.now;
		const answer = { status: 'running', created_at: new Date(task.createdAt).toISOString() };
		let rhythmAt = startedAt + POLL_MS;
		const poll = () => {
			const polledAt = clock.now;
			clock.after(half, () => {
				const done = clock.now >= task.createdAt + task.durationMs;
				task.looks.push(clock.now);
				clock.after(half, () => {
					if (done) {
						const completed_at = new Date(task.createdAt + task.durationMs).toISOString();
						model.noteFinished(taskId, { ...answer, status: 'succeeded', completed_at });
						// The result's download, then the lane's next item.
						clock.after(LATENCY_MS, () => {
							last = clock.now;
							submit();
						});
						return;
					}
					model.noteRunning(taskId, answer);
					rhythmAt = rhythmAfterPoll(rhythmAt, POLL_MS, polledAt, clock.now);
					const window = model.window(taskId);
					clock.after(
						nextPollIn({
							mode,
							pollMs: POLL_MS,
							window,
							startedAt,
							rhythmAt,
							now: clock.now,
						}),
						poll,
					);
				});
			});
		};
		clock.after(POLL_MS, poll);
	};
	for (let lane = 0; lane < lanes; lane++) submit();
	clock.runAll();
	return { wallMs: last, tasks };
}

/** The same lanes with no detection delay and no overhead: each task starts when a lane frees. */
function idealMs(durations: number[], lanes: number): number {
	const free = Array.from({ length: lanes }, () => 0);
	for (const duration of durations) {
		free.sort((a, b) => a - b);
		free[0] += duration;
	}
	return Math.max(...free);
}

/** How long after finishing each task was seen finished, in submit order. */
const detectionDelays = (run: BatchRun) =>
	run.tasks.map((task) => task.looks.at(-1)! - task.createdAt - task.durationMs);

const queries = (run: BatchRun) => run.tasks.reduce((sum, task) => sum + task.looks.length, 0);

export interface Figures {
	wall: number;
	fixedWall: number;
	queries: number;
	medianDelayMs: number;
	/** Tasks seen finished later after their submit than in the fixed poller's run, by more than 1 ms. */
	later: number;
}

export function compare(durations: number[], lanes: number): Figures {
	const adaptive = runBatch(durations, lanes, 'adaptive');
	const fixed = runBatch(durations, lanes, 'fixed');
	const ideal = idealMs(durations, lanes);
	const seen = (run: BatchRun) => run.tasks.map((task) => task.looks.at(-1)! - task.createdAt);
	const fixedSeen = seen(fixed);
	const delays = detectionDelays(adaptive).sort((a, b) => a - b);
	return {
		wall: adaptive.wallMs / ideal,
		fixedWall: fixed.wallMs / ideal,
		queries: queries(adaptive) / queries(fixed),
		medianDelayMs: delays[Math.floor(delays.length / 2)],
		later: seen(adaptive).filter((at, index) => at > fixedSeen[index] + 1).length,
	};
}
