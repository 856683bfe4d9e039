import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { requestResult } from '../transport';
import { submissionSchema } from './schemas';

export const GENERATION_PATH = '/v1/open/product-images/generations';

/** Submits once; the transport's `submit` policy never repeats a request the service may have taken. */
export async function submitGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
): Promise<{ task_id: string; status: string; request_id?: string }> {
	const { result, requestId } = await requestResult(
		context,
		{ purpose: 'submit', method: 'POST', path: GENERATION_PATH, body, itemIndex },
		submissionSchema,
	);
	return {
		task_id: result.task_id,
		status: result.status ?? 'submitted',
		...(requestId ? { request_id: requestId } : {}),
	};
}
