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
