import type { IExecuteFunctions } from 'n8n-workflow';

import type { Task } from './task';

// When a waiting item polls its task next; docs/polling.md ("The two schedules") gives the reasons.

export type PollingMode = 'adaptive' | 'fixed';

const DENSEST_MS = 750;
/** The one task a run still waits for, past every duration seen: this share of its time so far apart. */
const LAST_SHARE = 0.03;

/** Where, after its start, a task is likely to finish, and whether the run waits for it alone. */
export type CompletionWindow = { earliestMs: number; latestMs: number; alone: boolean };

export interface PollPlan {
	mode: PollingMode;
	pollMs: number;
	/** Null in a first wave (several tasks, no duration learned); undefined for a lone task before
	 * three durations are learned, and past the query budget: the fixed poller's polls only. */
	window: CompletionWindow | null | undefined;
	startedAt: number | undefined;
	rhythmAt: number;
	now: number;
}

/** A fixed poller's next poll after one sent at `polledAt`, answered at `repliedAt` (it sleeps the
 * interval after each answer); a poll up to half an interval late keeps it where it was due. */
export function rhythmAfterPoll(
	rhythmAt: number,
	pollMs: number,
	polledAt: number,
	repliedAt: number,
): number {
	if (polledAt < rhythmAt) return rhythmAt;
	if (polledAt - rhythmAt < pollMs / 2) return rhythmAt + (repliedAt - polledAt) + pollMs;
	let next = rhythmAt;
	while (next <= polledAt) next += pollMs + (repliedAt - polledAt);
	return next;
}

/** Where the window opens, then half its width apart to its end; past it, as far apart as the time
 * since it ended, for the run's last task LAST_SHARE of its time; DENSEST_MS apart, but its end. */
function windowGap({ earliestMs, latestMs, alone }: CompletionWindow, elapsedMs: number): number {
	// A trend's window is often this narrow: polled once, at its end, it costs one added poll, not two.
	if (latestMs - earliestMs < DENSEST_MS / 2) earliestMs = latestMs;
	const toEnd = latestMs - elapsedMs;
	const step = elapsedMs < earliestMs ? earliestMs - elapsedMs : (latestMs - earliestMs) / 2;
	if (toEnd > 0) return Math.min(toEnd, Math.max(DENSEST_MS, step));
	return Math.max(DENSEST_MS, alone ? LAST_SHARE * elapsedMs : -toEnd);
}

/** Adaptive: the fixed poller's next poll, or sooner where the window has one: never later. */
export function nextPollIn({ mode, pollMs, window, startedAt, rhythmAt, now }: PollPlan): number {
	if (mode === 'fixed') return pollMs;
	// A poll of the window sent before the rhythm's poll and answered after it leaves it due: at once.
	const bound = Math.max(0, rhythmAt - now);
	if (window === undefined || startedAt === undefined) return bound;
	if (window) return Math.min(bound, windowGap(window, now - startedAt));
	// Nothing learned yet (null): from its third interval on, a task is also polled halfway to the next.
	return now - startedAt >= 3 * pollMs && bound > pollMs / 2 ? bound - pollMs / 2 : bound;
}

// The duration model: what the run's recent tasks say about the next one.

const MIN_FINISHED = 3;
/** The run's polls beyond a fixed poller's, as a share of the fixed poller's. */
const ADDED_SHARE = 0.5;
/** The most recently created finished tasks the window is drawn from: durations that step move it soon. */
const RECENT_FINISHED = 5;
/** A trend counts from this correlation: five durations in no order reach it 1 time in 25. */
const TREND_CORRELATION = 0.9;

function epoch(value: string | null | undefined): number | undefined {
	const parsed = Date.parse(value ?? '');
	return Number.isNaN(parsed) ? undefined : parsed;
}

/** The start of a task this run did not submit: its `created_at`, read on this machine's clock. */
export const createdAt = (task: Task): number | undefined => epoch(task.created_at);

/** A task the run waits for: when the service created it, and its duration once finished. */
type Seen = { createdAt: number; ms?: number };

/** Milliseconds per place in the order the service created the tasks, or 0 without a clear trend. */
function slopeOf(finished: Array<{ place: number; ms: number }>): number {
	if (finished.length < RECENT_FINISHED) return 0;
	const sum = (of: (f: (typeof finished)[number]) => number) =>
		finished.reduce((total, f) => total + of(f), 0);
	const [place, ms] = [sum((f) => f.place) / finished.length, sum((f) => f.ms) / finished.length];
	const both = sum((f) => (f.place - place) * (f.ms - ms));
	const places = sum((f) => (f.place - place) ** 2);
	const durations = sum((f) => (f.ms - ms) ** 2);
	return Math.abs(both) >= TREND_CORRELATION * Math.sqrt(places * durations) ? both / places : 0;
}

/** What one node run learns about its tasks' durations (on the service's clock), in the order the
 * service created them: tasks created the same millisecond in the order the run met them. */
export class DurationModel {
	private readonly tasks = new Map<string, Seen>();
	private news = new AbortController();
	/** The last durations the window no longer draws from: a step down leaves longer tasks running. */
	private earlier: number[] = [];
	/** Polls a fixed poller makes too (one per interval, the one that sees a finish), and others. */
	private readonly polls = { fixed: 0, added: 0 };
	notePoll = (added: boolean) => void (this.polls[added ? 'added' : 'fixed'] += 1);
	/** Whether one more poll between the fixed poller's keeps the run within its query budget. */
	get mayAdd(): boolean {
		return this.polls.added + 1 <= ADDED_SHARE * this.polls.fixed;
	}

	/** Aborted once the model next changes what it predicts: a task finished or failed. */
	get learned(): AbortSignal {
		return this.news.signal;
	}

	private changed(): void {
		this.news.abort();
		this.news = new AbortController();
	}

	noteRunning(taskId: string, task?: Task): void {
		const created = (task && createdAt(task)) ?? this.tasks.get(taskId)?.createdAt ?? Infinity;
		this.tasks.set(taskId, { createdAt: created });
	}

	noteFinished(taskId: string, task: Task): void {
		const [created, completed] = [createdAt(task), epoch(task.completed_at)];
		if (created === undefined || completed === undefined || completed < created)
			this.tasks.delete(taskId);
		else this.tasks.set(taskId, { createdAt: created, ms: completed - created });
		// Only the last finished are placed: older ones only shift every later place alike.
		const finished = this.inOrder().filter(([, seen]) => seen.ms !== undefined);
		for (const [id, { ms }] of finished.slice(0, -RECENT_FINISHED)) {
			this.tasks.delete(id);
			this.earlier = [...this.earlier, ms!].slice(-2 * RECENT_FINISHED);
		}
		this.changed();
	}

	/** A failed task says nothing about how long a successful one takes. */
	forget(taskId: string): void {
		this.tasks.delete(taskId);
		this.changed();
	}

	/**
	 * The middle to the longest of the last finished durations, moved along their trend to the place
	 * of `taskId` (one not yet met: last); for a task past that by its width, the earlier durations
	 * longer than its time, when three are. Before three finish: null in a first wave, else undefined.
	 */
	window(taskId?: string, elapsedMs = NaN): CompletionWindow | null | undefined {
		const placed = this.inOrder().map(([id, seen], place) => ({ id, place, ms: seen.ms }));
		const finished = placed.filter((p): p is typeof p & { ms: number } => p.ms !== undefined);
		if (finished.length < MIN_FINISHED) return placed.length > 1 ? null : undefined;
		const at = placed.find((p) => p.id === taskId)?.place ?? placed.length;
		const slope = taskId === undefined ? 0 : slopeOf(finished);
		const recent = finished.map((f) => f.ms + slope * (at - f.place)).sort((a, b) => a - b);
		const span = (ms: number[]) => [ms[(ms.length - 1) >> 1], ms[ms.length - 1]];
		const [middle, end] = span(recent);
		const longer = this.earlier.filter((ms) => ms > elapsedMs).sort((a, b) => a - b);
		const stepped = !slope && elapsedMs >= 2 * end - middle && longer.length >= MIN_FINISHED;
		const [earliestMs, latestMs] = stepped ? span(longer) : [middle, end];
		const running = placed.filter((p) => p.ms === undefined);
		return { earliestMs, latestMs, alone: running.length === 1 && running[0].id === taskId };
	}

	/** The order the service created the tasks in; the run's Map keeps the order it met them in. */
	private inOrder(): Array<[string, Seen]> {
		return [...this.tasks].sort(([, a], [, b]) => a.createdAt - b.createdAt);
	}
}

const models = new WeakMap<IExecuteFunctions, DurationModel>();

export const durationModel = (context: IExecuteFunctions): DurationModel =>
	models.get(context) ?? models.set(context, new DurationModel()).get(context)!;
