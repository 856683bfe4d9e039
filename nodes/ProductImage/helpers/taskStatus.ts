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

function hasError(error: unknown): boolean {
	if (error === null || error === undefined || error === false) return false;
	if (typeof error === 'string') return error.trim() !== '';
	if (typeof error === 'object') return Object.keys(error).length > 0;
	return true;
}

export function classifyTask(task: Task): TaskState {
	const status = task.status.trim().toLowerCase();
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
