import type { IExecuteFunctions } from 'n8n-workflow';
import type { z } from 'zod';

import { parseResult } from './envelope';
import type { JsonCall } from './request';
import { callService } from './request';

export { downloadStream } from './request';

/**
 * Every JSON call of the node: one request through the shared helper (auth, retries, errors),
 * then the result taken out of its envelope and validated against `schema`.
 */
export async function requestResult<S extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	call: JsonCall,
	schema: S,
): Promise<{ result: z.infer<S>; requestId?: string }> {
	const reply = await callService.call(context, call);
	return { result: parseResult(context, schema, reply, call.purpose, call.itemIndex), requestId: reply.requestId };
}
