import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { cancelledError, failureError } from './apiError';
import type { DownloadInfo, JsonReply, Outcome } from './classify';
import { classifyDownloadReply, classifyJsonReply, failureFromException } from './classify';
import type { Failure } from './failure';
import { pauseUnlessCancelled } from './pause';
import type { RequestPurpose } from './purposes';
import { DEFAULT_TIMEOUT_MS } from './purposes';
import { redactSecrets } from './redact';
import { MAX_ATTEMPTS, POLICY_BY_PURPOSE, retryDelay, retryReason } from './retryPolicy';
import type { OutgoingRequest } from './send';
import { send } from './send';
import type { Session } from './session';
import { getSession } from './session';

export type { DownloadInfo, JsonReply } from './classify';

interface CallBase {
	purpose: RequestPurpose;
	itemIndex: number;
	timeoutMs?: number;
	/** Epoch ms after which no retry is started (the wait's overall deadline). */
	deadline?: number;
	/** Facts the caller knows (a task id) that belong on the error if this call fails. */
	errorContext?: IDataObject;
}

export interface JsonCall extends CallBase {
	method: 'GET' | 'POST';
	/** Path below the credential's base URL (see endpoints.ts). */
	path: string;
	body?: IDataObject | FormData;
}

export interface DownloadCall<T> extends CallBase {
	url: string;
	/** Runs inside the retry loop, so a body cut off mid-way is fetched again. */
	consume: (stream: unknown, info: DownloadInfo) => Promise<T>;
}

/**
 * A failure at an address that is not the service's (a download from a CDN or a store, or a hop a
 * redirect led to) names that host: the credential's Base URL has nothing to do with it.
 */
function withForeignHost(failure: Failure, session: Session, requestUrl: string): Failure {
	const url = failure.url ?? requestUrl;
	if (session.isServiceUrl(url)) return failure;
	try {
		return { ...failure, foreignHost: new URL(url).host };
	} catch {
		return failure;
	}
}

function redactFailure(failure: Failure, secrets: readonly string[]): Failure {
	const redact = (value: string | undefined) =>
		value === undefined ? undefined : redactSecrets(value, secrets);
	return {
		...failure,
		serviceMessage: redact(failure.serviceMessage),
		requestId: redact(failure.requestId),
		code: typeof failure.code === 'string' ? redact(failure.code) : failure.code,
	};
}

/**
 * The one path every request takes: wait while the service asks the whole run to pause, send,
 * classify the reply, retry by the purpose's policy (Retry-After, backoff, the caller's deadline),
 * and turn the last failure into an error that says what to do next and never holds the key.
 */
async function withRetries<T>(
	context: IExecuteFunctions,
	session: Session,
	call: CallBase & { sentRequestId?: string },
	request: OutgoingRequest,
	classify: (reply: Awaited<ReturnType<typeof send>>) => Promise<Outcome<T>>,
): Promise<T> {
	const signal = context.getExecutionCancelSignal?.();
	const toService = session.isServiceUrl(request.url);
	for (let tries = 1; ; tries++) {
		if (toService && !(await session.rateLimit.waitUntilOpen(signal))) {
			throw cancelledError(context, call.itemIndex);
		}
		let outcome: Outcome<T>;
		const at = { url: request.url };
		try {
			outcome = await classify(await send(context, session, request, at));
		} catch (error) {
			if (signal?.aborted) throw cancelledError(context, call.itemIndex);
			outcome = { ok: false, failure: { ...failureFromException(error), url: at.url } };
		}
		if (outcome.ok) return outcome.value;
		const failure = redactFailure(
			withForeignHost(outcome.failure, session, request.url),
			session.secrets,
		);
		const delayMs = retryDelay(call.purpose, failure, tries, call.deadline);
		const rateLimited = toService && failure.kind === 'http' && failure.status === 429;
		// Every lane waits out the service's pause, and the next 429 is counted either way.
		if (rateLimited) session.rateLimit.close(delayMs ?? 0);
		if (delayMs === undefined) throw failureError(context, failure, call, tries);
		const reason = retryReason(failure);
		session.retries.push({ reason });
		context.logger.warn(
			`Product Image: ${call.purpose} got ${reason}; retry ${tries} of ${MAX_ATTEMPTS[POLICY_BY_PURPOSE[call.purpose]] - 1} in ${delayMs} ms`,
			{ itemIndex: call.itemIndex, requestId: failure.requestId },
		);
		if (!rateLimited && !(await pauseUnlessCancelled(delayMs, signal))) {
			throw cancelledError(context, call.itemIndex);
		}
	}
}

/** A JSON API call below the credential's base URL. */
export async function callService(this: IExecuteFunctions, call: JsonCall): Promise<JsonReply> {
	const session = await getSession(this);
	// A submit carries an id of its own, so a submit whose reply never came can still be traced.
	const sentRequestId = call.purpose === 'submit' ? `n8n-${randomUUID()}` : undefined;
	const request: OutgoingRequest = {
		method: call.method,
		url: `${session.baseUrl}${call.path}`,
		body: call.body,
		timeoutMs: call.timeoutMs ?? DEFAULT_TIMEOUT_MS[call.purpose],
		accept: 'application/json',
		headers: sentRequestId ? { 'X-Request-Id': sentRequestId } : undefined,
		followRedirects: false,
	};
	return await withRetries(this, session, { ...call, sentRequestId }, request, classifyJsonReply);
}

/** A GET of an image address, on the service's origin or elsewhere, handed to `consume` as a stream. */
export async function downloadStream<T>(
	this: IExecuteFunctions,
	call: DownloadCall<T>,
): Promise<T> {
	const session = await getSession(this);
	const request: OutgoingRequest = {
		method: 'GET',
		url: call.url,
		timeoutMs: call.timeoutMs ?? DEFAULT_TIMEOUT_MS.download,
		accept: 'image/*, */*',
		followRedirects: true,
	};
	return await withRetries(this, session, call, request, async (reply) => {
		const outcome = await classifyDownloadReply(reply);
		if (!outcome.ok)
			return { ok: false, failure: { ...outcome.failure, url: outcome.failure.url ?? reply.url } };
		return { ok: true, value: await call.consume(reply.stream, outcome.value) };
	});
}
