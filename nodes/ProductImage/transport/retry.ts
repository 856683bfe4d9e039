import { sleep } from 'n8n-workflow';

import { SYNC_OPERATION_SECONDS } from '../serviceFacts';
import type { Failure } from './errors';
import { isTlsCode, nothingSent } from './errors';

// What each kind of request may have done at the service, so whether it is sent again, and how
// long the node waits between attempts and while the service asks for a pause.

/**
 * `read` (task queries, downloads, uploads) costs nothing: every transient failure is retried.
 * `billable` (submits, analyses, plans) may bill, and a 5xx or a timeout may come after the service
 * took the request (a gateway answers for a service still working): retried only where nothing can
 * have reached it, a 429 (it said no) or a connection that never opened.
 */
export type RetryPolicy = 'read' | 'billable';

export const MAX_ATTEMPTS: Record<RetryPolicy, number> = { read: 5, billable: 4 };

/** A Retry-After longer than this is not waited for: the run would look hung. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** Uploads and downloads move whole images: as long as the service's synchronous operations. */
const TRANSFER_MS = SYNC_OPERATION_SECONDS * 1000;

/** Without `timeoutMs`, the operation's option gives it: its default is in its description only. */
export const REQUEST_KINDS = {
	upload: { noun: 'image upload', timeoutMs: TRANSFER_MS, retry: 'read' },
	submit: { noun: 'generation request', retry: 'billable' },
	taskQuery: { noun: 'status check', timeoutMs: 30_000, retry: 'read' },
	download: { noun: 'image download', timeoutMs: TRANSFER_MS, retry: 'read' },
	analysis: { noun: 'analysis request', retry: 'billable' },
	plan: { noun: 'A+ plan request', retry: 'billable' },
} as const satisfies Record<string, { noun: string; timeoutMs?: number; retry: RetryPolicy }>;

export type RequestKind = keyof typeof REQUEST_KINDS;

export type OptionTimedKind = {
	[K in RequestKind]: (typeof REQUEST_KINDS)[K] extends { timeoutMs: number } ? never : K;
}[RequestKind];

/**
 * A failure the same request may not meet a moment later; a wait treats one of a task query as a
 * missed poll.
 */
export function isTransient(failure: Failure): boolean {
	if (failure.kind === 'http') {
		const status = failure.status ?? 0;
		return status === 429 || status === 408 || status >= 500;
	}
	if (failure.kind === 'timeout') return true;
	// A refused certificate or a TLS handshake with a host that speaks plain http fails the same way next time.
	return failure.kind === 'network' && !isTlsCode(failure.networkCode);
}

export function isRetryable(policy: RetryPolicy, failure: Failure): boolean {
	if (!isTransient(failure)) return false;
	if (policy === 'read') return true;
	return (failure.kind === 'http' && failure.status === 429) || nothingSent(failure);
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

/** Exponential backoff with equal jitter: never shorter than half the step, so a storm thins out. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
	return Math.round(step / 2 + (random() * step) / 2);
}

/** How long to wait before attempt `tries + 1`; undefined when it is not to be tried again. */
export function retryDelay(
	kind: RequestKind,
	failure: Failure,
	tries: number,
	deadline?: number,
): number | undefined {
	const policy = REQUEST_KINDS[kind].retry;
	if (tries >= MAX_ATTEMPTS[policy] || !isRetryable(policy, failure)) return undefined;
	const delayMs = failure.retryAfterMs ?? backoffDelay(tries);
	if (delayMs > MAX_RETRY_AFTER_MS) return undefined;
	if (deadline !== undefined && Date.now() + delayMs >= deadline) return undefined;
	return delayMs;
}

/** A canceled wait leaves its last timer behind (n8n-workflow's sleep cannot be cleared): keep it short. */
const SLICE_MS = 250;

/** `false` when canceled; the abort event ends the wait at once, however long the sleep. */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<boolean> {
	if (signal?.aborted) return false;
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<false>((resolve) => {
		onAbort = () => resolve(false);
		signal?.addEventListener('abort', onAbort, { once: true });
	});
	try {
		for (const end = Date.now() + ms; ;) {
			const left = end - Date.now();
			if (left <= 0) return true;
			const slice = sleep(Math.min(left, SLICE_MS)).then(() => true);
			if (!(await Promise.race([slice, aborted]))) return false;
		}
	} finally {
		if (onAbort) signal?.removeEventListener('abort', onAbort);
	}
}

/** Requests that resume together hit the limit together: each adds up to this share of the pause. */
const JITTER_SHARE = 0.2;
const JITTER_CAP_MS = 1_000;

/** A 429 pauses every request about to go to the service, so N parallel items back off once. */
export class RateLimitGate {
	private resumeAt = 0;
	private pauseMs = 0;

	/** A longer pause wins. */
	close(ms: number, now = Date.now()): void {
		if (now + ms > this.resumeAt) {
			this.resumeAt = now + ms;
			this.pauseMs = ms;
		}
	}

	delayFor(now = Date.now(), random: () => number = Math.random): number {
		const left = this.resumeAt - now;
		if (left <= 0) return 0;
		return Math.round(left + random() * Math.min(JITTER_CAP_MS, this.pauseMs * JITTER_SHARE));
	}

	/** `false` if canceled first. */
	async waitUntilOpen(signal?: AbortSignal): Promise<boolean> {
		for (let delay = this.delayFor(); delay > 0; delay = this.delayFor()) {
			if (!(await sleepUnlessCancelled(delay, signal))) return false;
		}
		return !signal?.aborted;
	}
}
