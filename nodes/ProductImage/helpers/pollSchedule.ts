import type { CompletionWindow } from './durationModel';

export type PollingMode = 'adaptive' | 'fixed';

/** The densest look inside a predicted window: twice a second. */
const DENSEST_MS = 500;
/** Looks per predicted window: a finished task is seen within an eighth of the window. */
const LOOKS_PER_WINDOW = 8;
/** A window wider than this many poll intervals says too little: polling stays fixed. */
const WIDEST_IN_INTERVALS = 3;

export interface LookPlan {
	mode: PollingMode;
	pollMs: number;
	/** Where this run expects a task to finish, once it has seen enough finish. */
	window: CompletionWindow | undefined;
	/** When the task started, on this machine's clock, if known. */
	startedAt: number | undefined;
	now: number;
}

/** The window to plan by, if the mode is adaptive, the task's start is known and the window is narrow enough. */
function usableWindow(plan: LookPlan): CompletionWindow | undefined {
	const { window, startedAt, pollMs } = plan;
	if (plan.mode === 'fixed' || !window || startedAt === undefined) return undefined;
	return window.latestMs - window.earliestMs > WIDEST_IN_INTERVALS * pollMs ? undefined : window;
}

/** The first look: never before Initial Delay (the spec's 5 s), and not before the window opens. */
export function firstLookIn(plan: LookPlan, initialDelayMs: number): number {
	const window = usableWindow(plan);
	if (!window) return initialDelayMs;
	return Math.max(initialDelayMs, window.earliestMs - (plan.now - (plan.startedAt ?? plan.now)));
}

/**
 * Milliseconds until the next look at a task. Fixed: the poll interval. Adaptive: no look before
 * the predicted window opens, looks an eighth of the window apart inside it, and the poll interval
 * before anything is known, after the window has passed, or when the tasks seen vary too much for
 * a prediction to save anything.
 */
export function nextLookIn(plan: LookPlan): number {
	const { startedAt, pollMs } = plan;
	const window = usableWindow(plan);
	if (!window || startedAt === undefined) return pollMs;
	const width = window.latestMs - window.earliestMs;
	const step = Math.min(pollMs, Math.max(DENSEST_MS, width / LOOKS_PER_WINDOW));
	const elapsed = plan.now - startedAt;
	if (elapsed < window.earliestMs) return Math.max(step, window.earliestMs - elapsed);
	if (elapsed <= window.latestMs) return step;
	return pollMs;
}
