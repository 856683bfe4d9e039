import type { Failure } from './failure';
import { isTimeout } from './guidance';

/**
 * - `read`: task queries, downloads and uploads change nothing that costs money, so every transient
 *   failure is retried.
 * - `submit`: a generation bills; it is retried only where the service certainly did not take it:
 *   429, or a connection refused before a byte was sent. Never after a timeout or a 5xx.
 * - `sync`: analysis and planning are slow and may bill; retried on 429 and on 5xx answers that
 *   did not come from the service itself (a gateway page or an empty body), never after a timeout.
 */
export type RetryPolicy = 'read' | 'submit' | 'sync';

export const MAX_ATTEMPTS: Record<RetryPolicy, number> = { read: 5, submit: 4, sync: 3 };

/** A Retry-After longer than this is not waited for: the run would look hung. */
export const MAX_RETRY_AFTER_MS = 120_000;

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

export function isRetryable(policy: RetryPolicy, failure: Failure): boolean {
	const status = failure.status;
	if (failure.kind === 'http' && status === 429) return true;
	const refused = failure.kind === 'network' && failure.networkCode === 'ECONNREFUSED';
	switch (policy) {
		case 'read':
			if (failure.kind === 'http') return status === 408 || (status !== undefined && status >= 500);
			return failure.kind === 'network' || isTimeout(failure);
		case 'submit':
			return refused;
		case 'sync':
			if (failure.kind === 'http') {
				return status !== undefined && status >= 500 && !failure.processed;
			}
			return refused;
	}
}

/** Exponential backoff with equal jitter: never shorter than half the step, so a storm thins out. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
	return Math.round(step / 2 + (random() * step) / 2);
}
