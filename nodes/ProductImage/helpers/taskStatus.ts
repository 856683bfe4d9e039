import { findEnvelopeCode, findServiceMessage } from '../transport/failure';
import type { Task } from './schemas';

/**
 * The spec names only `submitted` and `succeeded`. Every other status is "still working" unless it
 * is one of the usual words for a dead task, or the task carries an error.
 */
const FAILED_STATUSES = new Set([
	'failed',
	'failure',
	'error',
	'errored',
	'canceled',
	'cancelled',
	'expired',
	'timeout',
	'timed_out',
	'rejected',
]);

export type TaskState = 'succeeded' | 'failed' | 'pending';

/**
 * Some services keep an `error` object on every task and fill it only on failure
 * (`{code: null, message: ""}`): only content counts, not the object's presence.
 */
function hasError(error: unknown, depth = 0): boolean {
	if (error === null || error === undefined || typeof error === 'boolean') return error === true;
	if (typeof error === 'string') return error.trim() !== '';
	if (typeof error === 'number') return error !== 0;
	if (depth > 3 || typeof error !== 'object') return false;
	return Object.values(error).some((value) => hasError(value, depth + 1));
}

export function classifyTask(task: Task): TaskState {
	const status = task.status.trim().toLowerCase();
	// The images are the result the user paid for; a leftover error note does not take them away.
	if (status === 'succeeded' && (task.result?.images?.length ?? 0) > 0) return 'succeeded';
	if (FAILED_STATUSES.has(status) || hasError(task.error)) return 'failed';
	return status === 'succeeded' ? 'succeeded' : 'pending';
}

export function taskFailureReason(task: Task): string {
	const message = findServiceMessage(task.error);
	const code = findEnvelopeCode(task.error);
	if (message && code !== undefined) return `${message} (code ${code})`;
	return message ?? (code !== undefined ? `code ${code}` : 'the service gave no reason');
}

/** Task ids go into the request path: refuse anything that could leave it. */
export function isSafeTaskId(taskId: string): boolean {
	return /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(taskId) && !taskId.includes('..');
}
