import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { findEnvelopeCode, findServiceMessage, isRecord } from '../transport/errors';
import { requestResult, runStateOf, taskPath } from '../transport/request';
import { shortened } from '../transport/guidance';
import { validateParameter } from './parameters';

// Fields take the variants docs/decisions.md lists; unknown fields pass through, as users may need them.

/** Ids sent as numbers are the same ids: they travel as text. */
const id = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), z.string());

/** Epoch numbers (seconds, or milliseconds when that large) become ISO text. */
export const time = z
	.union([
		z.string(),
		z.number().transform((value) => new Date(value < 1e11 ? value * 1000 : value).toISOString()),
	])
	.nullish();

export const submissionSchema = z
	.object({
		task_id: id.pipe(z.string().min(1)),
		status: z.string().optional(),
	})
	.passthrough();

const taskSchema = z.preprocess(
	// `state` or `task_status` where the spec says `status`.
	(value) =>
		isRecord(value) && value.status === undefined
			? { ...value, status: value.state ?? value.task_status }
			: value,
	z
		.object({
			task_id: id.optional(),
			status: z.string().min(1),
			created_at: time,
			completed_at: time,
			// Never refused: a billed result the node cannot read is handed to the user, not lost.
			result: z.unknown().optional(),
			images: z.unknown().optional(),
			error: z.unknown().optional(),
		})
		.passthrough(),
);

export type Task = z.infer<typeof taskSchema>;

/** Wherever the service put them; undefined when the task carries no result images at all. */
export function resultImageEntries(task: Task): unknown[] | undefined {
	const result = task.result;
	const list = isRecord(result) ? result.images : (result ?? task.images);
	if (list === undefined || list === null || list === '') return undefined;
	return Array.isArray(list) ? list : [list];
}

/** An unfinished item's `outcome`, for an IF node to act on; docs/reliability.md lists each cause. */
export const NEXT_STEP = {
	/** The service's own word ended it: running the item unchanged gives the same. */
	final: 'final',
	/** A step this run could not complete: the task may be fine. */
	lookAgainLater: 'lookAgainLater',
	/** A submit whose answer never came: a task may have been created, and billed. */
	unknown: 'unknown',
} as const;

/** Answered 404 or 410 by the service itself, not a proxy's page. */
export function goneAtTheService(error: { httpCode?: unknown }, context: IDataObject): boolean {
	return (error.httpCode === '404' || error.httpCode === '410') && context.webPage !== true;
}

/** The spec names only `submitted` and `succeeded`; other services end a task with other words. */
const FAILED_STATUSES = new Set([
	'failed',
	'failure',
	'fail',
	'error',
	'errored',
	'canceled',
	'cancelled',
	'aborted',
	'expired',
	'timeout',
	'timed_out',
	'rejected',
]);

/** Words async APIs use for a task that ended well. */
const FINISHED_STATUSES = new Set([
	'succeeded',
	'succeed',
	'success',
	'successful',
	'completed',
	'complete',
	'done',
	'finished',
	'ready',
	'ok',
]);

/** Words for a task still on its way; any word in neither list counts as one too. */
const WORKING_STATUSES = new Set([
	'submitted',
	'created',
	'accepted',
	'queued',
	'in_queue',
	'pending',
	'waiting',
	'scheduled',
	'starting',
	'started',
	'running',
	'processing',
	'in_progress',
	'generating',
]);

/** `In Progress`, `in-progress` and `IN_PROGRESS` are one word. */
function statusWord(status: string): string {
	return status
		.trim()
		.toLowerCase()
		.replace(/[\s-]+/g, '_');
}

/** Some services keep `{code: null, message: ""}` on every task: only content counts. */
function hasError(error: unknown, depth = 0): boolean {
	if (error === null || error === undefined || typeof error === 'boolean') return error === true;
	if (typeof error === 'string') return error.trim() !== '';
	if (typeof error === 'number') return error !== 0;
	if (depth > 3 || typeof error !== 'object') return false;
	return Object.values(error).some((value) => hasError(value, depth + 1));
}

/** Readable or not: a finished task with unreadable ones is still finished. */
export function resultImageCount(task: Task): number {
	return resultImageEntries(task)?.length ?? 0;
}

/**
 * Images with a finished word win over a leftover error note: they are what the user paid for. A
 * finished word without images is succeeded too: waiting on would hide it until Max Wait Time.
 * Images without a completion time (previews) are still working.
 */
export function classifyTask(task: Task): 'succeeded' | 'failed' | 'pending' {
	const status = statusWord(task.status);
	const images = resultImageCount(task);
	if (FINISHED_STATUSES.has(status) && images > 0) return 'succeeded';
	if (FAILED_STATUSES.has(status) || hasError(task.error)) return 'failed';
	const completed = typeof task.completed_at === 'string' && task.completed_at.trim() !== '';
	if (images > 0 && completed) return 'succeeded';
	if (FINISHED_STATUSES.has(status)) return 'succeeded';
	// An unknown word with a completion time is a task that ended; a word for working is not.
	return completed && !WORKING_STATUSES.has(status) ? 'succeeded' : 'pending';
}

export function taskFailureReason(task: Task): string {
	const message = findServiceMessage(task.error);
	const code = findEnvelopeCode(task.error);
	const reason =
		message && code !== undefined
			? `${message} (code ${code})`
			: (message ?? (code !== undefined ? `code ${code}` : 'the service gave no reason'));
	return shortened(reason);
}

/** Task ids go into the request path: refuse anything that could leave it. */
export function taskIdStaysInPath(taskId: string): boolean {
	return /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(taskId) && !taskId.includes('..');
}

/** So Continue On Fail's error item and the run's error name the task to resume or report. */
export function withTaskId<E extends NodeApiError | NodeOperationError>(
	error: E,
	taskId: string,
): E {
	error.context.taskId = taskId;
	return error;
}

/** Asking again gets the same reply, so the advice never says to wait again. */
export function unreadableReplyAdvice(taskId: string): string {
	return `Asking again would read the same reply, so waiting for task ${taskId} again does not help. What the service sent is quoted above: a finished task's images are billed, so take their URLs from it ('Image → Download' takes a URL), or give the service's provider the task ID ${taskId}.`;
}

/** Off the run's list of billed tasks to collect: Wait for Completion would read the same reply. */
export function handedOverInError(context: IExecuteFunctions, taskId: string): void {
	const { acceptedTasks } = runStateOf(context);
	const at = acceptedTasks.findIndex((task) => task.taskId === taskId);
	if (at >= 0) acceptedTasks.splice(at, 1);
}

/** A failure during a wait leaves a billed task: unnamed, running the node again pays twice. */
export function nameTaskInError(
	error: unknown,
	taskId: string,
	advice: string,
	context?: IExecuteFunctions,
): unknown {
	if (!(error instanceof NodeApiError) && !(error instanceof NodeOperationError)) return error;
	let added = advice;
	if (error.context.serviceReply !== undefined) {
		if (context) handedOverInError(context, taskId);
		added = unreadableReplyAdvice(taskId);
	} else if (error instanceof NodeApiError && goneAtTheService(error, error.context)) {
		added = `Task ID: ${taskId}.`;
	}
	if (!error.description?.includes(added))
		error.description = error.description ? `${error.description} ${added}` : added;
	error.context.taskId ??= taskId;
	return error;
}

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

const taskIdSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(taskIdStaysInPath, 'must be a task ID such as task_abc123 (letters, digits, _ - . :)');

/** As n8n's guidelines ask: a dragged task item or a pasted task URL too. */
function bareTaskId(value: unknown): unknown {
	if (typeof value === 'object' && value !== null && 'task_id' in value)
		return (value as { task_id: unknown }).task_id;
	if (typeof value !== 'string' || !/^\s*https?:\/\//i.test(value)) return value;
	if (!URL.canParse(value.trim())) return value;
	return new URL(value.trim()).pathname.split('/').filter(Boolean).pop() ?? value;
}

export function readTaskId(context: IExecuteFunctions, itemIndex: number, label: string): string {
	return validateParameter(
		context,
		itemIndex,
		label,
		taskIdSchema,
		bareTaskId(context.getNodeParameter('taskId', itemIndex)),
	);
}
