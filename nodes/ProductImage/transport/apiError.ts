import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Failure } from './failure';
import { failureResponse, isTransient } from './failure';
import { describeFailure } from './guidance';
import type { RequestPurpose } from './purposes';

/** The error of a request cut short by a cancelled execution. */
export function cancelledError(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled', { itemIndex });
}

/**
 * The last failure of a request as the user sees it: what failed, what to do next, and the facts
 * the router puts on a Continue On Fail item. Built from redacted strings only.
 */
export function failureError(
	context: IExecuteFunctions,
	failure: Failure,
	call: {
		purpose: RequestPurpose;
		itemIndex: number;
		errorContext?: IDataObject;
		sentRequestId?: string;
	},
	attempts: number,
): NodeApiError {
	const { message, description } = describeFailure(
		failure,
		call.purpose,
		attempts,
		call.sentRequestId,
	);
	const error = new NodeApiError(context.getNode(), failureResponse(failure), {
		message,
		description,
		httpCode: failure.status !== undefined ? String(failure.status) : undefined,
		itemIndex: call.itemIndex,
	});
	// NodeApiError swaps any message naming a socket code (ECONNRESET, ETIMEDOUT, …) for n8n's
	// generic text, which says to retry at once: wrong after a submit the service may have taken,
	// and it drops the request id. Keep the message built above.
	error.message = message;
	// The router copies these onto the error item of Continue On Fail; a wait treats a transient
	// failure as a missed look rather than the end of the task.
	Object.assign(error.context, call.errorContext, {
		requestId: failure.requestId ?? call.sentRequestId,
		serviceCode: failure.code,
	});
	if (isTransient(failure)) error.context.transient = true;
	if (failure.retryAfterMs !== undefined) error.context.retryAfterMs = failure.retryAfterMs;
	return error;
}
