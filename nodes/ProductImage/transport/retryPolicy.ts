import type { Failure } from './failure';
import { isTimeout, isTlsCode, nothingSent } from './failure';
import type { RequestPurpose } from './purposes';

/**
 * - `read`: task queries, downloads and uploads change nothing that costs money, so every transient
 *   failure is retried.
 * - `billable`: submits, analyses and plans may bill, and a 5xx or a timeout may come after the
 *   service took the request (a gateway answers for a service that is still working). They are
 *   retried only where nothing can have reached the service: 429 (it said no), or a connection
 *   that never opened (refused, a name that did not resolve).
 */
export type RetryPolicy = 'read' | 'billable';

export const POLICY_BY_PURPOSE: Record<RequestPurpose, RetryPolicy> = {
	upload: 'read',
	submit: 'billable',
	taskQuery: 'read',
	download: 'read',
	analysis: 'billable',
	plan: 'billable',
};

export const MAX_ATTEMPTS: Record<RetryPolicy, number> = { read: 5, billable: 4 };

/** A Retry-After longer than this is not waited for: the run would look hung. */
export const MAX_RETRY_AFTER_MS = 120_000;

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

export function isRetryable(policy: RetryPolicy, failure: Failure): boolean {
	// A refused certificate or a TLS handshake with a host that speaks plain http fails the same way next time.
	if (failure.kind === 'network' && isTlsCode(failure.networkCode)) return false;
	if (failure.kind === 'http' && failure.status === 429) return true;
	if (nothingSent(failure)) return true;
	if (policy === 'billable') return false;
	if (failure.kind === 'http') return failure.status === 408 || (failure.status ?? 0) >= 500;
	return failure.kind === 'network' || isTimeout(failure);
}

/** Exponential backoff with equal jitter: never shorter than half the step, so a storm thins out. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
	return Math.round(step / 2 + (random() * step) / 2);
}

/**
 * How long to wait before attempt `tries + 1`, or undefined when the request should not be tried
 * again: the failure is not worth retrying, the attempts are used up, the service asks for a pause
 * too long to wait for, or the retry would start after the caller's deadline.
 */
export function retryDelay(
	purpose: RequestPurpose,
	failure: Failure,
	tries: number,
	deadline?: number,
): number | undefined {
	const policy = POLICY_BY_PURPOSE[purpose];
	if (tries >= MAX_ATTEMPTS[policy] || !isRetryable(policy, failure)) return undefined;
	const delayMs = failure.retryAfterMs ?? backoffDelay(tries);
	if (delayMs > MAX_RETRY_AFTER_MS) return undefined;
	if (deadline !== undefined && Date.now() + delayMs >= deadline) return undefined;
	return delayMs;
}

export function retryReason(failure: Failure): string {
	if (failure.kind === 'http') return `HTTP ${failure.status}`;
	return failure.networkCode ?? failure.kind;
}
