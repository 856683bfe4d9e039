import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { ENDPOINTS, requestResult, SUBMIT_TIMEOUT_SECONDS } from '../transport';
import { submissionSchema } from './schemas';
import { validateParameter } from './validate';

/** The Submit Timeout option of Generate and Generate and Wait, in ms. */
export function readSubmitTimeoutMs(context: IExecuteFunctions, itemIndex: number): number {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const seconds = validateParameter(
		context,
		itemIndex,
		'Submit Timeout',
		z.coerce.number().positive('must be a number of seconds greater than 0'),
		options.submitTimeout ?? SUBMIT_TIMEOUT_SECONDS,
	);
	return Math.round(seconds * 1000);
}

/** Submits once; the transport's `billable` policy never repeats a request the service may have taken. */
export async function submitGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	timeoutMs = readSubmitTimeoutMs(context, itemIndex),
): Promise<{ task_id: string; status: string; request_id?: string }> {
	const { result, requestId } = await requestResult(
		context,
		{ purpose: 'submit', method: 'POST', path: ENDPOINTS.generations, body, itemIndex, timeoutMs },
		submissionSchema,
	);
	return {
		task_id: result.task_id,
		status: result.status ?? 'submitted',
		...(requestId ? { request_id: requestId } : {}),
	};
}
