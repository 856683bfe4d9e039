import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import {
	binaryPropertyOption,
	initialDelayOption,
	maxWaitTimeOption,
	pollingOptionV1,
	pollIntervalOptionV1,
} from '../descriptions/common.descriptions';
import { isVersion1 } from '../descriptions/versions';
import {
	backoffDelay,
	MAX_RETRY_AFTER_MS,
	quotedText,
	requestResult,
	sleepUnlessCancelled,
	stopSignal,
	taskPath,
} from '../transport';
import type { Task } from './schemas';
import { taskSchema } from './schemas';
import type { ImageOutputSettings } from './output';
import { taskResultItems } from './output';
import { optionOrDefault, readOptions, validateParameter } from './parameters';
import type { PollingMode } from './pollSchedule';
import { createdAt, durationModel, firstPollIn, nextPollIn, rhythmAfterPoll } from './pollSchedule';
import {
	classifyTask,
	nameTaskInError,
	resultImageCount,
	taskFailureReason,
	withTaskId,
} from './task';

export interface WaitSettings {
	initialDelay: number;
	/** Initial Delay was set on the node; without it, a wait for an existing task polls at once. */
	initialDelayGiven?: boolean;
	pollInterval: number;
	/** Adaptive: polls placed where this run's tasks are likely to finish; fixed: every poll interval. */
	polling: PollingMode;
	maxWaitTime: number;
	/** `outputTaskState`: a wait that runs out of time reports where the task stood, without an error. */
	onTimeout: 'error' | 'outputTaskState';
}

/** How a wait ended: the task finished, or (On Timeout → Output Task State) the time ran out. */
export type WaitOutcome =
	| { finished: true; task: Task }
	| { finished: false; status: string | undefined; waitedSeconds: number };

const seconds = (minimum: number, inclusive: boolean) =>
	z.coerce
		.number({ invalid_type_error: 'must be a number of seconds' })
		.refine((value) => Number.isFinite(value) && (inclusive ? value >= minimum : value > minimum), {
			message: `must be a number of seconds ${inclusive ? 'of at least' : 'greater than'} ${minimum}`,
		});

/**
 * Workflows saved before the Polling option that set a Poll Interval asked for that rhythm: they
 * keep it (version 1). In the current version only Polling chooses, as the panel shows.
 */
function pollingMode(options: IDataObject, version1: boolean): PollingMode {
	if (options.polling === 'fixed' || options.polling === 'adaptive') return options.polling;
	return options.pollInterval !== undefined && version1
		? 'fixed'
		: (pollingOptionV1.default as PollingMode);
}

/** The waiting and output options shared by Generate and Wait and Task → Wait for Completion. */
export function readWaitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
): WaitSettings & ImageOutputSettings {
	const options = readOptions(context, itemIndex);
	return {
		initialDelay: validateParameter(
			context,
			itemIndex,
			'Initial Delay',
			seconds(0, true),
			optionOrDefault(options, initialDelayOption),
		),
		initialDelayGiven: options.initialDelay !== undefined,
		pollInterval: validateParameter(
			context,
			itemIndex,
			'Poll Interval',
			seconds(0.1, true),
			optionOrDefault(options, pollIntervalOptionV1),
		),
		maxWaitTime: validateParameter(
			context,
			itemIndex,
			'Max Wait Time',
			seconds(0, false),
			optionOrDefault(options, maxWaitTimeOption),
		),
		downloadImages: options.downloadImages !== false,
		binaryPropertyName: validateParameter(
			context,
			itemIndex,
			'Put Output File in Field',
			z.string().trim().min(1, 'must name a binary field, such as data'),
			optionOrDefault(options, binaryPropertyOption),
		),
		imagesOutput: options.imagesOutput === 'together' ? 'together' : 'perImage',
		onTimeout: options.onTimeout === 'outputTaskState' ? 'outputTaskState' : 'error',
		polling: pollingMode(options, isVersion1(context)),
	};
}

/**
 * A task query that failed for a passing reason (429, 5xx, reset, timeout, a name that did not
 * resolve) after its own retries: the delay before the next poll, or undefined when the failure ends the wait (a lasting one, or a
 * Retry-After longer than the transport waits for).
 */
function missedPollDelay(error: unknown, pollMs: number, missedPolls: number): number | undefined {
	const context = (
		error as { context?: { transient?: unknown; retryAfterMs?: unknown } } | undefined
	)?.context;
	if (context?.transient !== true) return undefined;
	const retryAfterMs = typeof context.retryAfterMs === 'number' ? context.retryAfterMs : 0;
	if (retryAfterMs > MAX_RETRY_AFTER_MS) return undefined;
	return Math.max(pollMs, retryAfterMs, backoffDelay(missedPolls));
}

/** One poll: the task as the service reports it now (also Task → Get). */
export async function queryTask(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	deadline?: number,
): Promise<{ task: Task; requestId?: string }> {
	const { result, requestId } = await requestResult(
		context,
		{
			kind: 'taskQuery',
			method: 'GET',
			path: taskPath(taskId),
			itemIndex,
			deadline,
			errorContext: { taskId },
		},
		taskSchema,
	);
	return { task: result, requestId };
}

function cancelled(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
): NodeOperationError {
	const why = context.getExecutionCancelSignal?.()?.aborted
		? 'The execution was cancelled'
		: 'Another item of this run failed';
	// A cancelled execution keeps n8n's own error, not this one: the task to resume is named in
	// n8n's log, the one place left that an operator (or a queue-mode worker's log) can find it.
	// After another item's failure the router's error lists the task instead.
	if (context.getExecutionCancelSignal?.()?.aborted) {
		context.logger.warn(
			`Product Image: the execution was cancelled while waiting for task ${taskId}; resume it with 'Task → Wait for Completion'`,
			{ itemIndex, taskId },
		);
	}
	return withTaskId(
		new NodeOperationError(context.getNode(), `${why} while waiting for the task`, {
			itemIndex,
			description: `The task may still finish on the service: resume with 'Task → Wait for Completion' and task ID ${taskId}.`,
		}),
		taskId,
	);
}

/**
 * A task whose last answer carried images is not called unfinished: it is one the service has not
 * marked done (no completion time, a word for "still working"), and the message says so.
 */
function timedOut(task: Task, maxWaitTime: number): { message: string; lastAnswer: string } {
	const images = resultImageCount(task);
	const status = quotedText(String(task.status));
	if (images === 0) {
		return {
			message: `The task did not finish within ${maxWaitTime} s`,
			lastAnswer: `Its last status was "${status}".`,
		};
	}
	return {
		message: `The task was not marked complete within ${maxWaitTime} s`,
		lastAnswer: `Its last answer (status "${status}") carried ${images} result image${images === 1 ? '' : 's'} but no completion time.`,
	};
}

/**
 * Waits for a task to reach a final state: at least the spec's 5 s before the first query, then
 * queries on the polling schedule (see pollSchedule.ts) until it succeeds, fails, or the overall
 * time runs out. Retries of single queries stay inside the same deadline. `submittedAt` is when
 * this run's submit of the task was answered, if this run submitted it.
 */
export async function waitForTask(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	settings: WaitSettings,
	submittedAt?: number,
): Promise<WaitOutcome> {
	const signal = stopSignal(context);
	const started = Date.now();
	const deadline = started + settings.maxWaitTime * 1000;
	const pollMs = settings.pollInterval * 1000;
	const model = durationModel(context);
	let taskStartedAt = submittedAt;
	// Initial Delay is the spec's wait after a submit. A task this run did not submit may have
	// finished long ago: the first poll is at once, unless the workflow set the delay itself.
	const initialDelayMs =
		submittedAt === undefined && !settings.initialDelayGiven ? 0 : settings.initialDelay * 1000;
	let rhythmAt = started + initialDelayMs;
	const plan = () => ({
		mode: settings.polling,
		pollMs,
		window: model.window(),
		startedAt: taskStartedAt,
		rhythmAt,
		now: Date.now(),
	});
	/** The next poll by the schedule; adaptive polls never overshoot the deadline, they end on it. */
	const nextPoll = (): number | undefined => {
		const planned = nextPollIn(plan());
		const left = deadline - Date.now();
		if (settings.polling === 'fixed') return planned > left ? undefined : planned;
		return left <= 0 ? undefined : Math.min(planned, left);
	};
	const firstDelay = Math.min(firstPollIn(plan(), initialDelayMs), settings.maxWaitTime * 1000);
	if (!(await sleepUnlessCancelled(firstDelay, signal)))
		throw cancelled(context, itemIndex, taskId);
	let lastStatus: string | undefined;
	let missedPolls = 0;
	for (;;) {
		let reply: Awaited<ReturnType<typeof queryTask>>;
		const polledAt = Date.now();
		try {
			reply = await queryTask(context, itemIndex, taskId, deadline);
			missedPolls = 0;
		} catch (error) {
			if (signal?.aborted) throw cancelled(context, itemIndex, taskId);
			// The task is fine; only this poll of it failed. Items that poll in step would keep
			// hitting the same storm, so the next poll backs off with jitter.
			const delayMs = missedPollDelay(error, pollMs, ++missedPolls);
			if (delayMs !== undefined && Date.now() + delayMs < deadline) {
				context.logger.warn(
					`Product Image: a query of task ${taskId} failed (${(error as Error).message}); looking again in ${delayMs} ms`,
					{ itemIndex, taskId },
				);
				if (!(await sleepUnlessCancelled(delayMs, signal)))
					throw cancelled(context, itemIndex, taskId);
				continue;
			}
			throw nameTaskInError(
				error,
				taskId,
				`The task goes on at the service: resume with 'Task → Wait for Completion' and task ID ${taskId} instead of generating again.`,
				context,
			);
		}
		const { task, requestId } = reply;
		taskStartedAt ??= createdAt(task);
		// A long wait shows in n8n's log as the task moves, not as one line per poll.
		if (task.status !== lastStatus) {
			context.logger.info(`Product Image: task ${taskId} is "${task.status}"`, {
				itemIndex,
				taskId,
			});
			lastStatus = task.status;
		}
		const state = classifyTask(task);
		if (state === 'succeeded') {
			model.noteFinished(taskId, task);
			return { finished: true, task };
		}
		if (state === 'failed') {
			model.forget(taskId);
			// The query was answered 200: the failure is the task's, so no HTTP code (NodeApiError
			// would read the task's status as one).
			const error = withTaskId(
				new NodeOperationError(context.getNode(), 'The service could not complete the task', {
					description: `Task ${taskId} ended with status "${quotedText(String(task.status))}": ${taskFailureReason(task)}. Change the prompt or the source images and generate again.`,
					itemIndex,
				}),
				taskId,
			);
			error.context.requestId = requestId;
			throw error;
		}
		if (taskStartedAt !== undefined) model.noteRunning(taskId, Date.now() - taskStartedAt);
		// From here on, as a fixed poller would count its interval.
		rhythmAt = rhythmAfterPoll(rhythmAt, pollMs, polledAt, Date.now());
		const delayMs = nextPoll();
		if (delayMs === undefined) {
			if (settings.onTimeout === 'outputTaskState') {
				return {
					finished: false,
					status: task.status,
					waitedSeconds: Math.round((Date.now() - started) / 100) / 10,
				};
			}
			const { message, lastAnswer } = timedOut(task, settings.maxWaitTime);
			throw withTaskId(
				new NodeOperationError(context.getNode(), message, {
					itemIndex,
					description: `${lastAnswer} The task goes on at the service. Resume with 'Task → Wait for Completion' and task ID ${taskId}, or raise 'Max Wait Time'.`,
				}),
				taskId,
			);
		}
		if (!(await sleepUnlessCancelled(delayMs, signal))) throw cancelled(context, itemIndex, taskId);
	}
}

/**
 * Waits for a task and hands on its images, or where it stood when the wait ran out of time.
 * `submittedAt`: when this run's submit of the task was answered, if this run submitted it.
 */
export async function collectTask(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	settings: WaitSettings & ImageOutputSettings,
	submittedAt?: number,
): Promise<INodeExecutionData[]> {
	const outcome = await waitForTask(context, itemIndex, taskId, settings, submittedAt);
	if (outcome.finished)
		return await taskResultItems(context, itemIndex, taskId, outcome.task, settings);
	return [
		{
			json: {
				task_id: taskId,
				status: outcome.status ?? null,
				timed_out: true,
				waited_seconds: outcome.waitedSeconds,
			},
		},
	];
}
