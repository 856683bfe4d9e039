import type { CompletionWindow } from './durationModel';

export type PollingMode = 'adaptive' | 'fixed';

/** The densest polling inside a predicted window: twice a second. */
const DENSEST_MS = 500;
/** Where the window opens, polls come a ninth of its width apart. */
const OPENING_SHARE = 1 / 9;
/** A window wider than this many poll intervals says too little: polling stays fixed. */
const WIDEST_IN_INTERVALS = 3;

export interface PollPlan {
	mode: PollingMode;
	pollMs: number;
	/** Where this run expects a task to finish, once it has seen enough finish. */
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

/** Until the fixed poller's next poll; one that would come right after this poll is skipped. */
function nextOnRhythm(plan: PollPlan): number {
	const { rhythmAt, pollMs, now } = plan;
	const left = rhythmAt - now;
	// Answers slower than the interval: a fixed poller still sleeps the interval after each.
	if (left <= 0) return pollMs;
	return left < Math.min(DENSEST_MS, pollMs / 2) ? left + pollMs : left;
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
export function stepInside(window: CompletionWindow, pollMs: number, elapsedMs: number): number {
	const width = window.latestMs - window.earliestMs;
	const left = Math.min(width, Math.max(0, window.latestMs - elapsedMs));
	const gap = width * OPENING_SHARE * Math.sqrt(width > 0 ? left / width : 0);
	return Math.min(pollMs, Math.max(DENSEST_MS, gap));
}

/**
 * The first poll: never before Initial Delay (the spec's 5 s), and with a window a gap into it:
 * a poll where the window opens would find only tasks shorter than any seen.
 */
export function firstPollIn(plan: PollPlan, initialDelayMs: number): number {
	const window = usableWindow(plan);
	if (!window || plan.startedAt === undefined) return initialDelayMs;
	return Math.max(
		initialDelayMs,
		window.earliestMs +
			stepInside(window, plan.pollMs, window.earliestMs) -
			(plan.now - plan.startedAt),
	);
}

/**
 * Milliseconds until the next poll of a task. Fixed: the poll interval. Adaptive: the fixed
 * poller's rhythm, except with a predicted window: no poll before it opens, polls closer together
 * as its end nears within it (see stepInside), and back on the rhythm (the same polls a fixed
 * poller makes) after it.
 */
export function nextPollIn(plan: PollPlan): number {
	const { startedAt, pollMs, now } = plan;
	if (plan.mode === 'fixed') return pollMs;
	const window = usableWindow(plan);
	if (!window || startedAt === undefined) return nextOnRhythm(plan);
	const elapsed = now - startedAt;
	if (elapsed < window.earliestMs)
		return window.earliestMs + stepInside(window, pollMs, window.earliestMs) - elapsed;
	if (elapsed >= window.latestMs) return nextOnRhythm(plan);
	return stepInside(window, pollMs, elapsed);
}
