/** Why a request is made; the retry policy, the default timeout and the error wording follow from it. */
export type RequestPurpose = 'upload' | 'submit' | 'taskQuery' | 'download' | 'analysis' | 'plan';

export const PURPOSE_LABEL: Record<RequestPurpose, string> = {
	upload: 'Image upload',
	submit: 'Generation submit',
	taskQuery: 'Task query',
	download: 'Image download',
	analysis: 'Product analysis',
	plan: 'A+ planning',
};

/** The service recommends a client timeout of at least 120 s for its synchronous operations. */
export const SYNC_TIMEOUT_SECONDS = 120;
/** Submits answer at once; the Submit Timeout option overrides this. */
export const SUBMIT_TIMEOUT_SECONDS = 60;

const LONG_MS = SYNC_TIMEOUT_SECONDS * 1000;

export const DEFAULT_TIMEOUT_MS: Record<RequestPurpose, number> = {
	upload: LONG_MS,
	submit: SUBMIT_TIMEOUT_SECONDS * 1000,
	taskQuery: 30_000,
	download: LONG_MS,
	analysis: LONG_MS,
	plan: LONG_MS,
};
