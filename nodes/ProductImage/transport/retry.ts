import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Failure } from './errors';
import {
	failureResponse,
	isTlsCode,
	nothingSent,
	redactFailure,
	submitMayHaveLanded,
} from './errors';
import type { Wording } from './guidance';
import { describeFailure } from './guidance';
import { resumeAdvice } from './words';
import { sleepUnlessCancelled } from './pause';
import type { RequestKind, RetryPolicy } from './requestKinds';
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, REQUEST_KINDS } from './requestKinds';
import type { ServiceAccess } from './runState';
import { runStateOf, stopSignal } from './runState';
import type { Classified, OutgoingRequest, RawReply } from './send';
import { failureFromException, send } from './send';

export interface CallBase {
	itemIndex: number;
	/** Epoch ms after which no retry is started (the wait's overall deadline). */
	deadline?: number;
	/** Facts the caller knows (a task id) that belong on the error if this call fails. */
	errorContext?: IDataObject;
	wording?: Wording;
}

export interface RetryCall extends CallBase {
	kind: RequestKind;
	/** The X-Request-Id this node sent, quoted when the service gave none. */
	sentRequestId?: string;
}

/**
 * A failure the same request may not meet a moment later; a wait treats one of a task query as a
 * missed poll.
 */
export function isTransient(failure: Failure): boolean {
	if (failure.kind === 'http') {
		const status = failure.status ?? 0;
		return status === 429 || status === 408 || status >= 500;
	}
	if (failure.kind === 'timeout') return true;
	// A refused certificate or a TLS handshake with a host that speaks plain http fails the same way next time.
	return failure.kind === 'network' && !isTlsCode(failure.networkCode);
}

/** A transient failure is sent again, except where a billable request may have reached the service. */
export function isRetryable(policy: RetryPolicy, failure: Failure): boolean {
	if (!isTransient(failure)) return false;
	if (policy === 'read') return true;
	return (failure.kind === 'http' && failure.status === 429) || nothingSent(failure);
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 30_000;

/** Exponential backoff with equal jitter: never shorter than half the step, so a storm thins out. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
	const step = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
	return Math.round(step / 2 + (random() * step) / 2);
}

/** How long to wait before attempt `tries + 1`; undefined when it is not to be tried again. */
export function retryDelay(
	kind: RequestKind,
	failure: Failure,
	tries: number,
	deadline?: number,
): number | undefined {
	const policy = REQUEST_KINDS[kind].retry;
	if (tries >= MAX_ATTEMPTS[policy] || !isRetryable(policy, failure)) return undefined;
	const delayMs = failure.retryAfterMs ?? backoffDelay(tries);
	if (delayMs > MAX_RETRY_AFTER_MS) return undefined;
	if (deadline !== undefined && Date.now() + delayMs >= deadline) return undefined;
	return delayMs;
}

/** `inFlight`: the request was under way, so a submit may have reached the service. */
function stoppedError(
	context: IExecuteFunctions,
	call: RetryCall,
	inFlight = false,
): NodeOperationError {
	const error = context.getExecutionCancelSignal?.()?.aborted
		? new NodeOperationError(context.getNode(), 'The execution was canceled', {
				itemIndex: call.itemIndex,
				description: `Nothing more was sent for this item. Generations the service already accepted are billed. ${resumeAdvice('the task IDs in the n8n log')}`,
			})
		: new NodeOperationError(context.getNode(), 'Not sent: another item stopped the run', {
				itemIndex: call.itemIndex,
				description:
					"Another item of this run stopped with its own message, shown for that item. Fix that item and run again, or set the node's setting 'On Error' to 'Continue' so that every item reports its own result. Nothing more was sent for this item.",
			});
	error.context.stopped = true;
	if (inFlight && call.kind === 'submit') error.context.mayHaveCreatedTask = true;
	return error;
}

/** Built from redacted strings only. */
function failureError(
	context: IExecuteFunctions,
	failure: Failure,
	call: RetryCall,
	attempts: number,
): NodeApiError {
	const { message, description, facts } = describeFailure(
		failure,
		call.kind,
		attempts,
		call.sentRequestId,
		{ ...call.wording, concurrency: runStateOf(context).concurrencyLabel },
	);
	const error = new NodeApiError(context.getNode(), failureResponse(failure), {
		message,
		description,
		httpCode: failure.status !== undefined ? String(failure.status) : undefined,
		itemIndex: call.itemIndex,
	});
	// NodeApiError swaps some messages (one naming a socket code, a status it knows) for n8n's
	// generic text, which says to retry at once: wrong after a submit the service may have taken,
	// and it drops the request id. Keep the message built above.
	error.message = message;
	// The router copies these onto the error item of Continue On Fail, a wait reads them, and an
	// item's outcome follows from them (router.ts, nextStepOf).
	Object.assign(error.context, call.errorContext, {
		requestId: failure.requestId ?? call.sentRequestId,
		serviceCode: failure.code,
		replyFacts: facts || undefined,
	});
	if (isTransient(failure)) error.context.transient = true;
	if (failure.retryAfterMs !== undefined) error.context.retryAfterMs = failure.retryAfterMs;
	if (failure.html) error.context.webPage = true;
	if (call.kind === 'submit' && submitMayHaveLanded(failure))
		error.context.mayHaveCreatedTask = true;
	return error;
}

/** A failure at another host (a CDN, a store, a redirect's hop) is not the credential's doing. */
function withForeignHost(failure: Failure, service: ServiceAccess, requestUrl: string): Failure {
	const url = failure.url ?? requestUrl;
	if (service.isServiceUrl(url) || !URL.canParse(url)) return failure;
	return { ...failure, foreignHost: new URL(url).host };
}

/** The one path every request takes, so the 429 pause, the retries and redaction hold for all. */
export async function withRetries<T>(
	context: IExecuteFunctions,
	service: ServiceAccess,
	call: RetryCall,
	request: OutgoingRequest,
	classify: (reply: RawReply) => Promise<Classified<T>>,
): Promise<T> {
	const { rateLimit, retries } = runStateOf(context);
	const stop = stopSignal(context);
	const toService = service.isServiceUrl(request.url);
	for (let tries = 1; ; tries++) {
		// Checked before every attempt, retries included: a retry is a new request to pay for.
		const open = toService ? await rateLimit.waitUntilOpen(stop) : !stop.aborted;
		if (!open) throw stoppedError(context, call);
		let classified: Classified<T>;
		const at = { url: request.url };
		try {
			classified = await classify(await send(context, service, request, at));
		} catch (error) {
			if (stop.aborted) throw stoppedError(context, call, true);
			classified = { ok: false, failure: { ...failureFromException(error, at.url), url: at.url } };
		}
		if (classified.ok) return classified.value;
		const failure = redactFailure(
			withForeignHost(classified.failure, service, request.url),
			service.secrets,
		);
		const delayMs = retryDelay(call.kind, failure, tries, call.deadline);
		const rateLimited = toService && failure.kind === 'http' && failure.status === 429;
		// Every request of the run waits out the service's pause, this one included.
		if (rateLimited) rateLimit.close(delayMs ?? 0);
		if (delayMs === undefined) throw failureError(context, failure, call, tries);
		const reason =
			failure.kind === 'http' ? `HTTP ${failure.status}` : (failure.networkCode ?? failure.kind);
		retries.push({ reason });
		context.logger.warn(
			`Product Image: ${call.kind} got ${reason}; retry ${tries} of ${MAX_ATTEMPTS[REQUEST_KINDS[call.kind].retry] - 1} in ${delayMs} ms`,
			{ itemIndex: call.itemIndex, requestId: failure.requestId },
		);
		if (!rateLimited && !(await sleepUnlessCancelled(delayMs, stop))) {
			throw stoppedError(context, call);
		}
	}
}
