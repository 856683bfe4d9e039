import type { IExecuteFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import type { JsonCall } from './calls';
import { callService } from './calls';
import { parseResult } from './envelope';

export type { DownloadCall, DownloadInfo, JsonCall, JsonReply } from './calls';
export { callService, downloadStream } from './calls';
export { ENDPOINTS, taskPath } from './endpoints';
export { SUBMIT_TIMEOUT_SECONDS, SYNC_TIMEOUT_SECONDS } from './purposes';
export type { RequestPurpose } from './purposes';

/**
 * Every JSON call of the node: one request through the shared path (auth, retries, errors),
 * then the result taken out of its envelope and validated against `schema`.
 */
export async function requestResult<S extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	call: JsonCall,
	schema: S,
): Promise<{ result: z.infer<S>; requestId?: string }> {
	const reply = await callService.call(context, call);
	return {
		result: parseResult(context, schema, reply, call.purpose, call.itemIndex),
		requestId: reply.requestId,
	};
}
