import type { IExecuteFunctions } from 'n8n-workflow';

import type { Task } from './schemas';

/** Fewer finished tasks than this say too little about the next one. */
const MIN_FINISHED = 3;
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
 * When a task this run did not submit (Task → Wait for Task) started: its `created_at`, read on
 * this machine's clock. A run that submitted the task knows the moment itself.
 */
export function createdAt(task: Task): number | undefined {
	return epoch(task.created_at);
}

/** The service-clock duration of a finished task: `completed_at` − `created_at`. */
export function finishedDuration(task: Task): number | undefined {
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

/**
 * What one node run learns about how long its tasks take: the durations of the tasks it saw
 * finish (`completed_at` − `created_at`, both on the service's clock, so this machine's clock does
 * not matter) and, for each task still running, how long it had run at its last poll.
 */
export class DurationModel {
	private readonly finished: number[] = [];
	private readonly running = new Map<string, number>();

	/** A poll found the task still running `elapsedMs` after its start. */
	noteRunning(taskId: string, elapsedMs: number): void {
		if (!(elapsedMs >= 0)) return;
		this.running.set(taskId, Math.max(elapsedMs, this.running.get(taskId) ?? 0));
	}

	noteFinished(taskId: string, task: Task): void {
		this.running.delete(taskId);
		const duration = finishedDuration(task);
		if (duration !== undefined) this.finished.push(duration);
	}

	/** A failed task says nothing about how long a successful one takes. */
	forget(taskId: string): void {
		this.running.delete(taskId);
	}

	/**
	 * From the shortest duration seen to the one by which 95 % of the run's tasks have finished,
	 * counting the tasks still running; undefined before three have finished or while tasks still
	 * running leave that share unknown.
	 */
	window(): CompletionWindow | undefined {
		if (this.finished.length < MIN_FINISHED) return undefined;
		const latestMs = durationQuantile(this.finished, [...this.running.values()], COVERED_SHARE);
		if (latestMs === undefined) return undefined;
		return { earliestMs: Math.min(...this.finished), latestMs };
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
