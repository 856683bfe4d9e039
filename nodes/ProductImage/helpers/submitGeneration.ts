import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ENDPOINTS, requestResult, SUBMIT_TIMEOUT_SECONDS } from '../transport';
import { runControl } from './runControl';
import { submissionSchema } from './schemas';
import { readTimeoutMs } from './timeoutOption';

/** The Submit Timeout option of Generate and Generate and Wait, in ms. */
export function readSubmitTimeoutMs(context: IExecuteFunctions, itemIndex: number): number {
	return readTimeoutMs(context, itemIndex, {
		name: 'submitTimeout',
		label: 'Submit Timeout',
		defaultSeconds: SUBMIT_TIMEOUT_SECONDS,
	});
}

/**
 * Submits once; the transport's `billable` policy never repeats a request the service may have
 * taken. Once another item of the run failed, nothing new is submitted: its output would be lost.
 */
export async function submitGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	timeoutMs: number,
): Promise<{ task_id: string; status: string; request_id?: string }> {
	const control = runControl(context);
	if (control.stop.signal.aborted) {
		throw new NodeOperationError(
			context.getNode(),
			'Not submitted: another item of this run failed first',
			{ itemIndex },
		);
	}
	const { result, requestId } = await requestResult(
		context,
		{ purpose: 'submit', method: 'POST', path: ENDPOINTS.generations, body, itemIndex, timeoutMs },
		submissionSchema,
	);
	control.accepted.push({ itemIndex, taskId: result.task_id });
	return {
		task_id: result.task_id,
		status: result.status ?? 'submitted',
		...(requestId ? { request_id: requestId } : {}),
	};
}
