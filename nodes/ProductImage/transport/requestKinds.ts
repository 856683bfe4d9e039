import { SYNC_OPERATION_SECONDS } from '../serviceFacts';

/** Below the credential's base URL. */
export const ENDPOINTS = {
	upload: '/v1/open/uploads/images',
	generations: '/v1/open/product-images/generations',
	analysis: '/v1/open/product-analysis',
	aPlusPlans: '/v1/open/aplus/plans',
} as const;

export function taskPath(taskId: string): string {
	return `/v1/open/tasks/${encodeURIComponent(taskId)}`;
}

/** A task id no one owns: the credential test's probe (methods/credentialTest.ts). */
export const CREDENTIAL_PROBE_TASK_ID = 'task_credential_check';

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
