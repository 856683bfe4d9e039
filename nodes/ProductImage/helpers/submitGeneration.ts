import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { parseResult } from '../transport/envelope';
import { callService } from '../transport/request';
import { submissionSchema } from './schemas';

export const GENERATION_PATH = '/v1/open/product-images/generations';

/** Submits once; the transport's `submit` policy never repeats a request the service may have taken. */
export async function submitGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
): Promise<{ task_id: string; status: string; request_id?: string }> {
	const reply = await callService.call(context, {
		purpose: 'submit',
		method: 'POST',
		path: GENERATION_PATH,
		body,
		itemIndex,
	});
	const submission = parseResult(context, submissionSchema, reply, 'submit', itemIndex);
	return {
		task_id: submission.task_id,
		status: submission.status ?? 'submitted',
		...(reply.requestId ? { request_id: reply.requestId } : {}),
	};
}
