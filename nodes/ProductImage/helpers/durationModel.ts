import type { IExecuteFunctions } from 'n8n-workflow';

import type { Task } from './schemas';

/** Fewer finished tasks than this say too little about the next one. */
const MIN_OBSERVED = 3;
/** Room either side of the durations seen: a task a little faster or slower still falls inside. */
const MARGIN_MS = 1000;

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

/**
 * What one node run learns from the tasks it sees finish: how long they take, `completed_at` −
 * `created_at`, both on the service's clock, so this machine's clock does not matter.
 */
export class DurationModel {
	private readonly durations: number[] = [];

	noteFinished(task: Task): void {
		const created = epoch(task.created_at);
		const completed = epoch(task.completed_at);
		if (created !== undefined && completed !== undefined && completed >= created) this.durations.push(completed - created);
	}

	window(): CompletionWindow | undefined {
		if (this.durations.length < MIN_OBSERVED) return undefined;
		return {
			earliestMs: Math.max(0, Math.min(...this.durations) - MARGIN_MS),
			latestMs: Math.max(...this.durations) + MARGIN_MS,
		};
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
