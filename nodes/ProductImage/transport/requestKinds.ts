/** Every endpoint of the service, below the credential's base URL. */
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
 * - `read`: task queries, downloads and uploads change nothing that costs money, so every transient
 *   failure is retried.
 * - `billable`: submits, analyses and plans may bill, and a 5xx or a timeout may come after the
 *   service took the request (a gateway answers for a service that is still working). They are
 *   retried only where nothing can have reached the service: 429 (it said no), or a connection
 *   that never opened (refused, a name that did not resolve).
 */
export type RetryPolicy = 'read' | 'billable';

export const MAX_ATTEMPTS: Record<RetryPolicy, number> = { read: 5, billable: 4 };

/** A Retry-After longer than this is not waited for: the run would look hung. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** The service recommends a client timeout of at least 120 s for its synchronous operations. */
export const SYNC_TIMEOUT_SECONDS = 120;
/** Submits answer at once; the Submit Timeout option overrides this. */
export const SUBMIT_TIMEOUT_SECONDS = 60;

const LONG_MS = SYNC_TIMEOUT_SECONDS * 1000;

/**
 * Every kind of request the node makes. Its error wording (`label`), its default timeout and its
 * retry policy follow from the kind; a new kind of request is one more row here.
 */
export const REQUEST_KINDS = {
	upload: { label: 'Image upload', timeoutMs: LONG_MS, retry: 'read' },
	submit: {
		label: 'Generation submit',
		timeoutMs: SUBMIT_TIMEOUT_SECONDS * 1000,
		retry: 'billable',
	},
	taskQuery: { label: 'Task query', timeoutMs: 30_000, retry: 'read' },
	download: { label: 'Image download', timeoutMs: LONG_MS, retry: 'read' },
	analysis: { label: 'Product analysis', timeoutMs: LONG_MS, retry: 'billable' },
	plan: { label: 'A+ planning', timeoutMs: LONG_MS, retry: 'billable' },
} as const satisfies Record<string, { label: string; timeoutMs: number; retry: RetryPolicy }>;

export type RequestKind = keyof typeof REQUEST_KINDS;
