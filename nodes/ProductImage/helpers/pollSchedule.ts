import type { IExecuteFunctions } from 'n8n-workflow';

import type { Task } from './schemas';

// When a waiting item polls its task next: on a fixed poller's rhythm, and in between inside the
// window this node run has learned from its tasks' durations (the duration model below).
// docs/polling.md explains the rule.

export type PollingMode = 'adaptive' | 'fixed';

/** The densest polling inside a predicted window: twice a second. */
const DENSEST_MS = 500;
/** Where the window opens, polls come a ninth of its width apart. */
const OPENING_SHARE = 1 / 9;
/** A window wider than this many poll intervals says too little: it adds no polls. */
const WIDEST_IN_INTERVALS = 3;

export interface PollPlan {
	mode: PollingMode;
	pollMs: number;
	/** Where this run expects the task to finish, once it has seen enough finish. */
	window: CompletionWindow | undefined;
	/** When the task started, on this machine's clock, if known. */
	startedAt: number | undefined;
	/** When a fixed poller of this task would poll next (see rhythmAfterPoll). */
	rhythmAt: number;
	now: number;
}

/** The window to plan by, if the mode is adaptive, the task's start is known and the window is narrow enough. */
function usableWindow(plan: PollPlan): CompletionWindow | undefined {
	const { window, startedAt, pollMs } = plan;
	if (plan.mode === 'fixed' || !window || startedAt === undefined) return undefined;
	return window.latestMs - window.earliestMs > WIDEST_IN_INTERVALS * pollMs ? undefined : window;
}

/**
 * Until the fixed poller's next poll. A poll on its rhythm moves it on past the answer
 * (rhythmAfterPoll); a poll of the window sent before it and answered after it leaves it due: at
 * once.
 */
function untilRhythm(plan: PollPlan): number {
	return Math.max(0, plan.rhythmAt - plan.now);
}

/**
 * When a fixed poller of the task polls next, after a poll sent at `polledAt` was answered and
 * read by `repliedAt`. A fixed poller sleeps the interval after each answer, so its polls drift by the
 * answers' latency and by timers firing late on a busy machine; a poll on that rhythm (up to half
 * an interval late) moves it on the same way, which never puts a poll earlier than the fixed
 * poller's. A poll that jumped further past it moves it on by the interval and this latency.
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

/**
 * The gap between polls `elapsedMs` into a task, inside its window: a ninth of the window where it
 * opens, shrinking with the square root of the window time left. A task still running is ever
 * more likely to finish by the next poll as the window's end nears; polls spaced so (the known
 * best for a finish equally likely anywhere in the window) see tasks finished sooner for the same
 * number of polls than polls evenly spaced.
 */
function stepInside(window: CompletionWindow, pollMs: number, elapsedMs: number): number {
	const width = window.latestMs - window.earliestMs;
	const left = Math.min(width, Math.max(0, window.latestMs - elapsedMs));
	const gap = width * OPENING_SHARE * Math.sqrt(width > 0 ? left / width : 0);
	return Math.min(pollMs, Math.max(DENSEST_MS, gap));
}

/** Until the window's next poll: a step into it before it opens, none after it closes. */
function nextInWindow(window: CompletionWindow, pollMs: number, elapsedMs: number): number {
	if (elapsedMs < window.earliestMs)
		return window.earliestMs + stepInside(window, pollMs, window.earliestMs) - elapsedMs;
	if (elapsedMs >= window.latestMs) return Infinity;
	return stepInside(window, pollMs, elapsedMs);
}

/**
 * Milliseconds until the next poll of a task. Fixed: the poll interval. Adaptive: the fixed
 * poller's next poll, or sooner where the predicted window (see stepInside) has one first. The
 * window only adds polls to the fixed poller's, whatever it predicts: no task is seen finished
 * later than a fixed poller would see it, and where nothing is predicted the polls are the same.
 */
export function nextPollIn(plan: PollPlan): number {
	const { startedAt, pollMs, now } = plan;
	if (plan.mode === 'fixed') return pollMs;
	const bound = untilRhythm(plan);
	const window = usableWindow(plan);
	if (!window || startedAt === undefined) return bound;
	const elapsed = now - startedAt;
	const planned = nextInWindow(window, pollMs, elapsed);
	if (planned >= bound) return bound;
	// A poll inside the window mostly finds the task still running: the fixed poller's poll due
	// within a window's gap after it stands in for it. One at the window's end should find it done.
	const at = elapsed + planned;
	return at < window.latestMs && planned > bound - stepInside(window, pollMs, at) ? bound : planned;
}

// The duration model: what the run's tasks, finished and still running, say about the next one.

/** Fewer finished tasks than this say too little about the next one. */
const MIN_FINISHED = 3;
/** A window is learned from the run's most recent finished tasks, so a long run forgets old durations. */
const RECENT_FINISHED = 40;
/** A trend in the durations needs this many finished tasks… */
const TREND_MIN_FINISHED = 8;
/**
 * …and this much agreement between the order the run met its tasks in and their durations
 * (Kendall's τ): eight tasks of steady durations, in whatever order, reach it by chance about
 * once in thirty, twenty once in five thousand.
 */
const TREND_AGREEMENT = 0.6;
/**
 * The window ends where this share of the run's tasks have finished. A task still running past
 * every duration seen holds the share below it: the window stays unknown until it finishes.
 */
const COVERED_SHARE = 0.95;

/** Where, after its start, a task of this run is likely to finish: service-clock milliseconds. */
export interface CompletionWindow {
	earliestMs: number;
	latestMs: number;
}

function epoch(value: string | null | undefined): number | undefined {
	if (!value) return undefined;
	const parsed = Date.parse(value);
	return Number.isNaN(parsed) ? undefined : parsed;
}

/**
 * When a task this run did not submit (Task → Wait for Completion) started: its `created_at`, read on
 * this machine's clock. A run that submitted the task knows the moment itself.
 */
export function createdAt(task: Task): number | undefined {
	return epoch(task.created_at);
}

/** The service-clock duration of a finished task: `completed_at` − `created_at`. */
function finishedDuration(task: Task): number | undefined {
	const created = epoch(task.created_at);
	const completed = epoch(task.completed_at);
	return created !== undefined && completed !== undefined && completed >= created
		? completed - created
		: undefined;
}

/**
 * The share of tasks finished by each duration (a Kaplan–Meier estimate): a task still running
 * counts as one that takes at least as long as it has run, so tasks that finish first do not
 * pass for all of them. Returns the duration by which the share reaches `share`, or undefined.
 */
export function durationQuantile(
	finished: readonly number[],
	running: readonly number[],
	share: number,
): number | undefined {
	// At equal times a finish comes before a task seen running then: that task is still at risk.
	const observations = [
		...finished.map((at) => ({ at, finished: true })),
		...running.map((at) => ({ at, finished: false })),
	].sort((a, b) => a.at - b.at || Number(b.finished) - Number(a.finished));
	let atRisk = observations.length;
	let unfinished = 1;
	for (const observation of observations) {
		if (observation.finished) {
			unfinished *= 1 - 1 / atRisk;
			if (1 - unfinished >= share - 1e-9) return observation.at;
		}
		atRisk--;
	}
	return undefined;
}

/** A task as the run knows it: its place in the order the run met its tasks, and its duration so far. */
interface Seen {
	order: number;
	ms: number;
}

/** How durations move from one task to the next in the order the run met them (durationTrend). */
interface Trend {
	/** Milliseconds per task. */
	slope: number;
	/** How far the slope may be off, in milliseconds per task: half the middle half of the slopes. */
	slack: number;
}

/**
 * The durations' trend: the median of the slopes between every two finished tasks (Theil–Sen: a
 * few odd tasks do not sway it), or none while order and duration agree too little for a trend
 * to be more than chance. Tasks sent longest first, a service draining its queue or getting busy
 * all show as one; tasks started together finish at different times, so the order the run met
 * them in, not their start, tells a trend apart in the first of them.
 */
function durationTrend(finished: readonly Seen[]): Trend | undefined {
	if (finished.length < TREND_MIN_FINISHED) return undefined;
	const slopes: number[] = [];
	let agreement = 0;
	for (let i = 0; i < finished.length; i++) {
		for (let j = i + 1; j < finished.length; j++) {
			const apart = finished[j].order - finished[i].order;
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
 * What one node run learns about how long its tasks take: the durations of the most recent tasks
 * it saw finish (`completed_at` − `created_at`, both on the service's clock, so this machine's
 * clock does not matter) and, for each task still running, how long it had run at its last poll;
 * each with its place in the order the run met its tasks (its first poll).
 */
export class DurationModel {
	/** In order, at most RECENT_FINISHED. */
	private readonly finished: Seen[] = [];
	private readonly running = new Map<string, Seen>();
	private met = 0;

	/** A poll found the task still running `elapsedMs` after its start. */
	noteRunning(taskId: string, elapsedMs: number): void {
		if (!(elapsedMs >= 0)) return;
		const seen = this.running.get(taskId);
		this.running.set(taskId, {
			order: seen?.order ?? this.met++,
			ms: Math.max(elapsedMs, seen?.ms ?? 0),
		});
	}

	noteFinished(taskId: string, task: Task): void {
		const order = this.running.get(taskId)?.order ?? this.met++;
		this.running.delete(taskId);
		const duration = finishedDuration(task);
		if (duration === undefined) return;
		this.finished.push({ order, ms: duration });
		this.finished.sort((a, b) => a.order - b.order);
		if (this.finished.length > RECENT_FINISHED) this.finished.shift();
	}

	/** A failed task says nothing about how long a successful one takes. */
	forget(taskId: string): void {
		this.running.delete(taskId);
	}

	/**
	 * From the shortest duration seen to the one by which 95 % of the run's tasks have finished,
	 * counting the tasks still running; undefined before three have finished or while tasks still
	 * running leave that share unknown. For one task of the run (`taskId`), every duration seen is
	 * first moved along the durations' trend (durationTrend) to that task's place in the order,
	 * and the window widened by how far the trend may be off there: where tasks get faster, the
	 * window of a later task opens earlier; where they get slower, later.
	 */
	window(taskId?: string): CompletionWindow | undefined {
		if (this.finished.length < MIN_FINISHED) return undefined;
		const order = taskId === undefined ? undefined : (this.running.get(taskId)?.order ?? this.met);
		const trend = order === undefined ? undefined : durationTrend(this.finished);
		const slope = trend?.slope ?? 0;
		const moved = (seen: Seen) => seen.ms + slope * ((order ?? seen.order) - seen.order);
		const finished = this.finished.map(moved);
		const latestMs = durationQuantile(
			finished,
			[...this.running.values()].map(moved),
			COVERED_SHARE,
		);
		if (latestMs === undefined) return undefined;
		// The further past the tasks it was learned from, the less sure the trend.
		const margin =
			trend && order !== undefined
				? trend.slack * Math.max(0, order - this.finished[this.finished.length - 1].order)
				: 0;
		return { earliestMs: Math.min(...finished) - margin, latestMs: latestMs + margin };
	}
}

const models = new WeakMap<IExecuteFunctions, DurationModel>();

/** One model per node run: its first tasks inform the rest. */
export function durationModel(context: IExecuteFunctions): DurationModel {
	let model = models.get(context);
	if (!model) {
		model = new DurationModel();
		models.set(context, model);
	}
	return model;
}
