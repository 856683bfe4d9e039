import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { backoffDelay, MAX_RETRY_AFTER_MS, sleepUnlessCancelled } from '../transport/retry';
import { resumeTask, shortened } from '../transport/guidance';
import { stopSignal } from '../transport/request';
import type { ImageOutputSettings } from './output';
import { taskResultItems } from './output';
import { maxWaitTimeOption } from '../descriptions/common.descriptions';
import { optionOrDefault, panelProperty, readOptions, validateParameter } from './parameters';
import type { PollingMode } from './pollSchedule';
import { createdAt, durationModel, nextPollIn, rhythmAfterPoll } from './pollSchedule';
import type { Task } from './task';
import {
	classifyTask,
	nameTaskInError,
	NEXT_STEP,
	queryTask,
	resultImageCount,
	taskFailureReason,
	withTaskId,
} from './task';
import { KEPT_FOR } from '../serviceFacts';

export interface WaitSettings {
	initialDelay: number;
	/** Initial Delay was set on the node; without it, a wait for an existing task polls at once. */
	initialDelayGiven?: boolean;
	pollInterval: number;
	polling: PollingMode;
	maxWaitTime: number;
	onTimeout: 'error' | 'outputTaskState';
}

export const isPollingMode = (value: unknown): value is PollingMode =>
	value === 'fixed' || value === 'adaptive';

/** How a wait ended: the finished task, or (On Timeout → Output Task State) the last state seen. */
type WaitEnd =
	| { finished: true; task: Task }
	| {
			finished: false;
			status: string | undefined;
			waitedSeconds: number;
			lastCheckError?: string;
	  };

const seconds = (minimum: number, inclusive: boolean) =>
	z.coerce
		.number({ invalid_type_error: 'must be a number of seconds' })
		.refine((value) => Number.isFinite(value) && (inclusive ? value >= minimum : value > minimum), {
			message: `must be a number of seconds ${inclusive ? 'of at least' : 'greater than'} ${minimum}`,
		});

/** The waiting and output options shared by Generate and Wait and Task → Wait for Completion. */
export function readWaitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
	waitOptions: INodeProperties[],
): WaitSettings & ImageOutputSettings {
	const options = readOptions(context, itemIndex);
	const label = (name: string) => panelProperty(waitOptions, name).displayName;
	const chosen = (name: string) => optionOrDefault(options, panelProperty(waitOptions, name));
	const checked = (name: string, schema: z.ZodTypeAny) =>
		validateParameter(context, itemIndex, label(name), schema, chosen(name));
	return {
		initialDelay: checked('initialDelay', seconds(0, true)),
		initialDelayGiven: options.initialDelay !== undefined,
		pollInterval: checked('pollInterval', seconds(0.1, true)),
		maxWaitTime: checked('maxWaitTime', seconds(0, false)),
		downloadImages: chosen('downloadImages') !== false,
		binaryPropertyName: checked(
			'binaryPropertyName',
			z.string().trim().min(1, 'must name a binary field, such as data'),
		),
		imagesOutput: chosen('imagesOutput') === 'together' ? 'together' : 'perImage',
		onTimeout: chosen('onTimeout') === 'outputTaskState' ? 'outputTaskState' : 'error',
		polling: isPollingMode(options.polling)
			? options.polling
			: (panelProperty(waitOptions, 'polling').default as PollingMode),
	};
}

type TaskWait = ReturnType<typeof startWait>;

function startWait(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	settings: WaitSettings,
	submittedAt: number | undefined,
) {
	const startedAt = Date.now();
	// Initial Delay follows a submit: a task this run did not submit may have finished long ago.
	const initialDelayMs =
		submittedAt === undefined && !settings.initialDelayGiven ? 0 : settings.initialDelay * 1000;
	return {
		context,
		itemIndex,
		taskId,
		settings,
		signal: stopSignal(context),
		startedAt,
		deadline: startedAt + settings.maxWaitTime * 1000,
		pollMs: settings.pollInterval * 1000,
		initialDelayMs,
		taskDurations: durationModel(context),
		/** On this machine's clock, once known. */
		taskStartedAt: submittedAt,
		/** When a fixed poller of this task would poll next (see rhythmAfterPoll). */
		rhythmAt: startedAt + initialDelayMs,
		lastAnswer: undefined as Task | undefined,
		/** The last poll, when it could not be made. */
		lastFailure: undefined as unknown,
		/** In a row. */
		missedPolls: 0,
	};
}

/** When the next poll is due, planned at the answer read at `answeredAt`; undefined past Max Wait Time. */
function pollDue(wait: TaskWait, answeredAt: number): number | undefined {
	const { settings, pollMs, taskId, taskStartedAt: startedAt, rhythmAt, deadline } = wait;
	const [model, elapsedMs] = [wait.taskDurations, answeredAt - (startedAt ?? NaN)];
	const window = model.mayAdd ? model.window(taskId, elapsedMs) : undefined;
	const plan = { mode: settings.polling, pollMs, window, startedAt, rhythmAt, now: answeredAt };
	const due = answeredAt + nextPollIn(plan);
	if (settings.polling === 'fixed') return due > deadline ? undefined : due;
	// Adaptive polls never overshoot the deadline: the last one is on it.
	return answeredAt >= deadline ? undefined : Math.min(due, deadline);
}

function cancelled(wait: TaskWait): NodeOperationError {
	const { context, itemIndex, taskId } = wait;
	const aborted = context.getExecutionCancelSignal?.()?.aborted;
	// n8n keeps its own error for a canceled execution: only its log can name the task.
	if (aborted) {
		context.logger.warn(
			`Product Image: the execution was canceled while waiting for task ${taskId}; ${resumeTask(taskId)}`,
			{ itemIndex, taskId },
		);
	}
	const why = aborted ? 'The execution was canceled' : 'Another item stopped the run';
	return withTaskId(
		new NodeOperationError(context.getNode(), `${why} while waiting for the task`, {
			itemIndex,
			description: `The task may still finish on the service: ${resumeTask(taskId)}.`,
		}),
		taskId,
	);
}

/**
 * Until `due`. After an answer, Adaptive: what the run learns meanwhile from other items' tasks
 * may bring the poll forward, to where it would have been planned had it been known then.
 */
async function pauseUntilDue(wait: TaskWait, due: number, answeredAt?: number): Promise<void> {
	const replans = answeredAt !== undefined && wait.settings.polling === 'adaptive';
	for (;;) {
		if (wait.signal.aborted) throw cancelled(wait);
		if (due <= Date.now()) return;
		const stop = replans ? AbortSignal.any([wait.signal, wait.taskDurations.learned]) : wait.signal;
		if (await sleepUnlessCancelled(due - Date.now(), stop)) {
			// Added polls planned together may exceed the budget: past it, the fixed poller's poll.
			const fixedDue = Math.min(wait.rhythmAt, wait.deadline);
			if (due >= fixedDue || wait.taskDurations.mayAdd) return;
			due = fixedDue;
		} else if (!wait.signal.aborted) due = Math.min(due, pollDue(wait, answeredAt!) ?? due);
	}
}

/** Undefined when the poll could not be made (kept as the last failure). */
async function poll(wait: TaskWait): Promise<{ task: Task; requestId?: string } | undefined> {
	try {
		const reply = await queryTask(wait.context, wait.itemIndex, wait.taskId, wait.deadline);
		wait.lastFailure = undefined;
		wait.missedPolls = 0;
		return reply;
	} catch (error) {
		if (wait.signal.aborted) throw cancelled(wait);
		wait.lastFailure = error;
		wait.missedPolls += 1;
		return undefined;
	}
}

/** Undefined when the failure ends the wait: a lasting one, or a Retry-After the transport would not wait. */
function missedPollDelay(error: unknown, pollMs: number, missedPolls: number): number | undefined {
	const context = (
		error as { context?: { transient?: unknown; retryAfterMs?: unknown } } | undefined
	)?.context;
	if (context?.transient !== true) return undefined;
	const retryAfterMs = typeof context.retryAfterMs === 'number' ? context.retryAfterMs : 0;
	if (retryAfterMs > MAX_RETRY_AFTER_MS) return undefined;
	return Math.max(pollMs, retryAfterMs, backoffDelay(missedPolls));
}

/** Only this poll failed, not the task: the next backs off with jitter, so items stop polling in step. */
function backOff(wait: TaskWait): number | undefined {
	const { lastFailure: error, taskId } = wait;
	const delayMs = missedPollDelay(error, wait.pollMs, wait.missedPolls);
	if (delayMs === undefined) {
		throw nameTaskInError(
			error,
			taskId,
			`The task goes on at the service: ${resumeTask(taskId)} instead of generating again.`,
			wait.context,
		);
	}
	if (Date.now() + delayMs >= wait.deadline) return undefined;
	wait.context.logger.warn(
		`Product Image: a query of task ${taskId} failed (${(error as Error).message}); looking again in ${delayMs} ms`,
		{ itemIndex: wait.itemIndex, taskId },
	);
	return Date.now() + delayMs;
}

/** The query was answered 200, so no HTTP code (NodeApiError would read the task's status as one). */
function taskFailed(wait: TaskWait, task: Task, requestId: string | undefined): NodeOperationError {
	const { context, taskId } = wait;
	const error = withTaskId(
		new NodeOperationError(context.getNode(), 'The service could not complete the task', {
			description: `Task ${taskId} ended with status "${shortened(String(task.status))}": ${taskFailureReason(task)}. Change the prompt or the source images and generate again.`,
			itemIndex: wait.itemIndex,
		}),
		taskId,
	);
	error.context.requestId = requestId;
	error.context.outcome = NEXT_STEP.final;
	return error;
}

/** Undefined while the task is still working. */
function finish(
	wait: TaskWait,
	{ task, requestId }: { task: Task; requestId?: string },
): WaitEnd | undefined {
	const { context, itemIndex, taskId, taskDurations } = wait;
	wait.taskStartedAt ??= createdAt(task);
	// A long wait shows in n8n's log as the task moves, not as one line per poll.
	if (task.status !== wait.lastAnswer?.status)
		context.logger.info(`Product Image: task ${taskId} is "${task.status}"`, { itemIndex, taskId });
	wait.lastAnswer = task;
	const state = classifyTask(task);
	if (state === 'succeeded') {
		taskDurations.noteFinished(taskId, task);
		return { finished: true, task };
	}
	if (state === 'failed') {
		taskDurations.forget(taskId);
		throw taskFailed(wait, task, requestId);
	}
	taskDurations.noteRunning(taskId, task);
	return undefined;
}

/** A task whose last answer carried images is not called unfinished, only not marked complete. */
function unfinished(wait: TaskWait, task: Task): { message: string; description: string } {
	const { maxWaitTime } = wait.settings;
	const images = resultImageCount(task);
	const status = shortened(String(task.status));
	const resume = `The task goes on at the service: ${resumeTask(wait.taskId)}, or raise '${maxWaitTimeOption.displayName}'.`;
	if (images === 0) {
		return {
			message: `The task did not finish within ${maxWaitTime} s`,
			description: `Its last status was "${status}". ${resume}`,
		};
	}
	return {
		message: `The task was not marked complete within ${maxWaitTime} s`,
		description: `Its last answer (status "${status}") carried ${images} result image${images === 1 ? '' : 's'} but no completion time. ${resume}`,
	};
}

function failedPoll(error: unknown): { title: string; facts: string } {
	const { message, context } = error as { message?: string; context?: { replyFacts?: unknown } };
	const facts = typeof context?.replyFacts === 'string' ? ` ${context.replyFacts}` : '';
	return { title: String(message), facts };
}

/** The last poll could not be made: the check failed, not the task, and the message says so. */
function unanswered(wait: TaskWait): { message: string; description: string } {
	const { taskId, lastAnswer } = wait;
	const { title, facts } = failedPoll(wait.lastFailure);
	const seen = lastAnswer
		? `The last status it reported was "${shortened(String(lastAnswer.status))}".`
		: 'It reported no status in this wait.';
	return {
		message: `The service did not answer about task ${taskId} within ${wait.settings.maxWaitTime} s`,
		description: `The last check could not be made. ${title}.${facts} ${seen} A check that could not be made says nothing about the task itself: it goes on at the service. Look again later: ${resumeTask(taskId)} (a finished task's images stay at the service for up to ${KEPT_FOR}), or raise '${maxWaitTimeOption.displayName}'.`,
	};
}

function timeOut(wait: TaskWait): WaitEnd {
	const { context, itemIndex, taskId, settings, lastAnswer, lastFailure } = wait;
	if (settings.onTimeout === 'outputTaskState') {
		return {
			finished: false,
			status: lastAnswer?.status,
			waitedSeconds: Math.round((Date.now() - wait.startedAt) / 100) / 10,
			lastCheckError: lastFailure === undefined ? undefined : failedPoll(lastFailure).title,
		};
	}
	const { message, description } =
		lastFailure === undefined && lastAnswer ? unfinished(wait, lastAnswer) : unanswered(wait);
	const error = withTaskId(
		new NodeOperationError(context.getNode(), message, { itemIndex, description }),
		taskId,
	);
	error.context.outcome = NEXT_STEP.lookAgainLater;
	throw error;
}

async function waitForTask(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	settings: WaitSettings,
	submittedAt?: number,
): Promise<WaitEnd> {
	const wait = startWait(context, itemIndex, taskId, settings, submittedAt);
	// Initial Delay in either mode (the fixed poller's first), Max Wait Time at the latest.
	await pauseUntilDue(
		wait,
		wait.startedAt + Math.min(wait.initialDelayMs, settings.maxWaitTime * 1000),
	);
	for (;;) {
		const polledAt = Date.now();
		const reply = await poll(wait);
		const end = reply && finish(wait, reply);
		if (reply) wait.taskDurations.notePoll(polledAt < wait.rhythmAt && !end);
		if (end) return end;
		const answeredAt = Date.now();
		if (reply) wait.rhythmAt = rhythmAfterPoll(wait.rhythmAt, wait.pollMs, polledAt, answeredAt);
		const due = reply ? pollDue(wait, answeredAt) : backOff(wait);
		if (due === undefined) return timeOut(wait);
		await pauseUntilDue(wait, due, reply ? answeredAt : undefined);
	}
}

/** `submittedAt`: when this run's submit of the task was answered, if this run submitted it. */
export async function collectTask(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	settings: WaitSettings & ImageOutputSettings,
	submittedAt?: number,
): Promise<INodeExecutionData[]> {
	const end = await waitForTask(context, itemIndex, taskId, settings, submittedAt);
	if (end.finished) return await taskResultItems(context, itemIndex, taskId, end.task, settings);
	const json: IDataObject = {
		task_id: taskId,
		status: end.status ?? null,
		timed_out: true,
		waited_seconds: end.waitedSeconds,
		outcome: NEXT_STEP.lookAgainLater,
	};
	if (end.lastCheckError !== undefined) json.last_check_error = end.lastCheckError;
	return [{ json }];
}
