/**
 * Every endpoint of the service, below the credential's base URL. The credential's test request
 * (credentials/ProductImageApi.credentials.ts) spells `taskPath(CREDENTIAL_PROBE_TASK_ID)` out as
 * a literal, because n8n reads credential files as data; a unit test keeps the two equal.
 */
export const ENDPOINTS = {
	upload: '/v1/open/uploads/images',
	generations: '/v1/open/product-images/generations',
	analysis: '/v1/open/product-analysis',
	aPlusPlans: '/v1/open/aplus/plans',
} as const;

export function taskPath(taskId: string): string {
	return `/v1/open/tasks/${encodeURIComponent(taskId)}`;
}

/** A task id no one owns: the service answers it with 404 for a valid key, 401 for a wrong one. */
export const CREDENTIAL_PROBE_TASK_ID = 'task_credential_check';
