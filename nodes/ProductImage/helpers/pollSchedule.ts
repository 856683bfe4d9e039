import type { IExecuteFunctions } from 'n8n-workflow';

import type { Task } from './schemas';

// When a waiting item polls its task next: on a fixed poller's rhythm, and in between where the
// run's recent durations say the task should finish. docs/polling.md ("The two schedules") gives
// the reasoning behind each rule and constant below.

export type PollingMode = 'adaptive' | 'fixed';

const DENSEST_MS = 500;
const OPENING_SHARE = 1 / 4;
/** A window wider than this many poll intervals says too little: it adds no polls. */
const WIDEST_IN_INTERVALS = 3;

export interface PollPlan {
	mode: PollingMode;
	pollMs: number;
	window: CompletionWindow | undefined;
	/** When the task started, on this machine's clock, if known. */
	startedAt: number | undefined;
	/** When a fixed poller of this task would poll next (see rhythmAfterPoll). */
	rhythmAt: number;
	now: number;
}

function usableWindow(plan: PollPlan): CompletionWindow | undefined {
	const { window, startedAt, pollMs } = plan;
	if (plan.mode === 'fixed' || !window || startedAt === undefined) return undefined;
	return window.latestMs - window.earliestMs > WIDEST_IN_INTERVALS * pollMs ? undefined : window;
}

/**
 * When a fixed poller polls next after a poll sent at `polledAt` and read by `repliedAt`. It sleeps
 * the interval after each answer, so its polls drift by latency and late timers; a poll on that
 * rhythm (up to half an interval late) moves it on the same way, never earlier than the fixed
 * poller's. A poll further past it moves it on by the interval and this latency.
 */
export function rhythmAfterPoll(
	rhythmAt: number,
	pollMs: number,
	polledAt: number,
	repliedAt: number,
): number {
	if (polledAt < rhythmAt) return rhythmAt;
	if (polledAt - rhythmAt < pollMs / 2) return repliedAt + pollMs;
	let next = rhythmAt;
	while (next <= polledAt) next += pollMs + (repliedAt - polledAt);
	return next;
}

/** The gap between polls inside the window: why it shrinks so is in docs/polling.md. */
function stepInside(window: CompletionWindow, pollMs: number, elapsedMs: number): number {
	const width = window.latestMs - window.earliestMs;
	const left = Math.min(width, Math.max(0, window.latestMs - elapsedMs));
	const gap = width * OPENING_SHARE * Math.sqrt(width > 0 ? left / width : 0);
	return Math.min(pollMs, Math.max(DENSEST_MS, gap));
}

/**
 * The window's first poll where it opens; past its end, gaps as long as the time past it (each
 * twice the one before), for one poll interval: a task a little longer than the ones before it.
 */
function nextInWindow(window: CompletionWindow, pollMs: number, elapsedMs: number): number {
	const past = elapsedMs - window.latestMs;
	if (elapsedMs < window.earliestMs) return window.earliestMs - elapsedMs;
	if (past >= pollMs) return Infinity;
	return past >= 0 ? Math.max(DENSEST_MS, past) : stepInside(window, pollMs, elapsedMs);
}

/**
 * Adaptive: the fixed poller's next poll, or sooner where the window has one first. The window
 * only adds polls, so no task is seen finished later than a fixed poller would see it.
 */
export function nextPollIn(plan: PollPlan): number {
	const { startedAt, pollMs, now } = plan;
	if (plan.mode === 'fixed') return pollMs;
	// A poll of the window sent before the rhythm's poll and answered after it leaves it due: at once.
	const bound = Math.max(0, plan.rhythmAt - now);
	const window = usableWindow(plan);
	if (!window || startedAt === undefined) return bound;
	const elapsed = now - startedAt;
	const planned = nextInWindow(window, pollMs, elapsed);
	if (planned >= bound) return bound;
	// The fixed poller's poll due within a gap stands in for one inside the window, not at its end.
	const at = elapsed + planned;
	return at < window.latestMs && planned > bound - stepInside(window, pollMs, at) ? bound : planned;
}

// The duration model: what the run's recent tasks say about the next one.

const MIN_FINISHED = 3;
/** The most recently created finished tasks the window is drawn from: durations that step move it soon. */
const RECENT_FINISHED = 8;
/** Kendall's τ: eight steady durations in any order reach it by chance about once in thirty. */
const TREND_AGREEMENT = 0.6;

/** Where, after its start, a task is likely to finish: service-clock milliseconds. */
export type CompletionWindow = { earliestMs: number; latestMs: number };

function epoch(value: string | null | undefined): number | undefined {
	const parsed = Date.parse(value ?? '');
	return Number.isNaN(parsed) ? undefined : parsed;
}

/** The start of a task this run did not submit: its `created_at`, read on this machine's clock. */
export function createdAt(task: Task): number | undefined {
	return epoch(task.created_at);
}

function finishedDuration(task: Task): number | undefined {
	const [created, completed] = [epoch(task.created_at), epoch(task.completed_at)];
	const known = created !== undefined && completed !== undefined && completed >= created;
	return known ? completed - created : undefined;
}

/**
 * A task as the model keeps it: when the service created it (a task without `created_at` counts
 * as created after every other), the order the run met it in among tasks created the same
 * millisecond, and its duration once finished.
 */
type Seen = { createdAt: number; met: number; ms: number };

/** A task's duration and its place in the order the service created the run's tasks. */
type Placed = { place: number; ms: number };

const bySubmit = (a: Seen, b: Seen) => a.createdAt - b.createdAt || a.met - b.met;

/** Milliseconds per task, and how far that may be off: half the middle half of the slopes. */
type Trend = { slope: number; slack: number };

/**
 * The median of the slopes between every two finished tasks (Theil–Sen), or none while order and
 * duration agree too little for a trend to be more than chance.
 */
function durationTrend(finished: readonly Placed[]): Trend | undefined {
	if (finished.length < RECENT_FINISHED) return undefined;
	const slopes: number[] = [];
	let agreement = 0;
	for (let i = 0; i < finished.length; i++) {
		for (let j = i + 1; j < finished.length; j++) {
			const apart = finished[j].place - finished[i].place;
			const longer = finished[j].ms - finished[i].ms;
			slopes.push(longer / apart);
			agreement += Math.sign(apart) * Math.sign(longer);
		}
	}
	if (Math.abs(agreement / slopes.length) < TREND_AGREEMENT) return undefined;
	slopes.sort((a, b) => a - b);
	const at = (share: number) => slopes[Math.floor(share * (slopes.length - 1))];
	return { slope: at(0.5), slack: (at(0.75) - at(0.25)) / 2 };
}

/**
 * What one node run learns about its tasks' durations: the most recently created finished ones
 * (on the service's clock, so this machine's does not matter) and the place of each still running.
 */
export class DurationModel {
	/** In the order the service created them. */
	private readonly finished: Seen[] = [];
	private readonly running = new Map<string, Seen>();
	private met = 0;

	private seen(taskId: string, task: Task | undefined): Seen {
		const known = this.running.get(taskId);
		return {
			createdAt: (task && createdAt(task)) ?? known?.createdAt ?? Infinity,
			met: known?.met ?? this.met++,
			ms: 0,
		};
	}

	noteRunning(taskId: string, task?: Task): void {
		this.running.set(taskId, this.seen(taskId, task));
	}

	noteFinished(taskId: string, task: Task): void {
		const seen = this.seen(taskId, task);
		this.running.delete(taskId);
		const duration = finishedDuration(task);
		if (duration === undefined) return;
		this.finished.push({ ...seen, ms: duration });
		this.finished.sort(bySubmit);
		if (this.finished.length > RECENT_FINISHED) this.finished.shift();
	}

	/** A failed task says nothing about how long a successful one takes. */
	forget(taskId: string): void {
		this.running.delete(taskId);
	}

	/**
	 * Every task's place in the order the service created them: a batch sent in some order is
	 * submitted in it, while the run meets tasks submitted together in whatever order their
	 * answers come back.
	 */
	private placed(): { finished: Placed[]; running: Map<string, Placed> } {
		const all = [...this.finished, ...this.running.values()].sort(bySubmit);
		const places = new Map(all.map((seen, index) => [seen, index]));
		const place = (seen: Seen) => ({ place: places.get(seen)!, ms: seen.ms });
		const running = new Map([...this.running].map(([id, seen]) => [id, place(seen)]));
		return { finished: this.finished.map(place), running };
	}

	/**
	 * From the shortest to the longest recent duration. For `taskId`, every duration is first moved
	 * along the trend to that task's place, and the window widened by how far the trend may be off
	 * there.
	 */
	window(taskId?: string): CompletionWindow | undefined {
		if (this.finished.length < MIN_FINISHED) return undefined;
		const { finished, running } = this.placed();
		const at =
			taskId === undefined
				? undefined
				: (running.get(taskId)?.place ?? finished.length + running.size);
		const trend = at === undefined ? undefined : durationTrend(finished);
		const durations = finished.map(
			(seen) => seen.ms + (trend?.slope ?? 0) * ((at ?? seen.place) - seen.place),
		);
		// The further past the tasks it was learned from, the less sure the trend.
		const beyond = at === undefined ? 0 : Math.max(0, at - finished[finished.length - 1].place);
		const margin = (trend?.slack ?? 0) * beyond;
		return {
			earliestMs: Math.min(...durations) - margin,
			latestMs: Math.max(...durations) + margin,
		};
	}
}

const models = new WeakMap<IExecuteFunctions, DurationModel>();

export function durationModel(context: IExecuteFunctions): DurationModel {
	let model = models.get(context);
	if (!model) models.set(context, (model = new DurationModel()));
	return model;
}
