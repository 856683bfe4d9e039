import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { isHttpAddress } from '../helpers/imageUrls';
import { sleepUnlessCancelled } from '../helpers/sleep';
import {
	discard,
	ERROR_BODY_LIMIT,
	htmlHeadline,
	JSON_BODY_LIMIT,
	looksLikeHtml,
	readLimited,
} from './body';
import type { Failure } from './failure';
import {
	failureResponse,
	findEnvelopeCode,
	findNetworkCode,
	findRequestId,
	findServiceMessage,
	isTimeoutCode,
	parseRetryAfter,
} from './failure';
import type { RequestPurpose } from './guidance';
import { describeFailure } from './guidance';
import { redactSecrets } from './redact';
import type { RetryPolicy } from './retryPolicy';
import { backoffDelay, isRetryable, MAX_ATTEMPTS, MAX_RETRY_AFTER_MS } from './retryPolicy';
import type { Session } from './session';
import { CREDENTIAL_TYPE, getSession } from './session';

const POLICY_BY_PURPOSE: Record<RequestPurpose, RetryPolicy> = {
	upload: 'read',
	submit: 'submit',
	taskQuery: 'read',
	download: 'read',
	analysis: 'sync',
	plan: 'sync',
};

const DEFAULT_TIMEOUT_MS: Record<RequestPurpose, number> = {
	upload: 120_000,
	submit: 60_000,
	taskQuery: 30_000,
	download: 120_000,
	analysis: 120_000,
	plan: 120_000,
};

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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
	/** Path below the credential's base URL. */
	path: string;
	body?: IDataObject | FormData;
}

export interface JsonReply {
	status: number;
	body: unknown;
	requestId?: string;
}

export interface DownloadInfo {
	mimeType?: string;
	finalUrl: string;
}

export interface DownloadCall<T> extends CallBase {
	url: string;
	/** Runs inside the retry loop, so a body cut off mid-way is fetched again. */
	consume: (stream: unknown, info: DownloadInfo) => Promise<T>;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

interface RawReply {
	status: number;
	headers: Record<string, unknown>;
	stream: unknown;
	url: string;
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
}

/**
 * Sends one request. The Authorization header goes to the credential's own origin only; redirects
 * are followed here, hop by hop, because n8n's own redirect handling forwards it to any origin.
 */
async function send(
	context: IExecuteFunctions,
	session: Session,
	request: { method: 'GET' | 'POST'; url: string; body?: IDataObject | FormData; timeoutMs: number; accept: string },
	followRedirects: boolean,
): Promise<RawReply> {
	let { url, method, body } = request;
	for (let hop = 0; ; hop++) {
		const options: IHttpRequestOptions = {
			method,
			url,
			headers: { Accept: request.accept },
			timeout: request.timeoutMs,
			encoding: 'stream',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			abortSignal: context.getExecutionCancelSignal?.(),
		};
		if (body !== undefined) {
			// n8n types the body after the form-data package; the built-in FormData is sent as is.
			options.body = body as IHttpRequestOptions['body'];
			if (!(body instanceof FormData)) options.json = true;
		}
		const ownOrigin = new URL(url).origin === session.origin;
		const response = (
			ownOrigin
				? await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options)
				: await context.helpers.httpRequest(options)
		) as IN8nHttpFullResponse;
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const location = header(headers, 'location');
		if (followRedirects && REDIRECT_STATUSES.has(response.statusCode) && location && hop < MAX_REDIRECTS) {
			discard(response.body);
			url = new URL(location, url).href;
			if (!isHttpAddress(url)) {
				return { status: response.statusCode, headers, stream: undefined, url };
			}
			if (response.statusCode === 303) {
				method = 'GET';
				body = undefined;
			}
			continue;
		}
		return { status: response.statusCode, headers, stream: response.body, url };
	}
}

async function failureFromReply(reply: RawReply): Promise<Failure> {
	if (REDIRECT_STATUSES.has(reply.status)) {
		discard(reply.stream);
		return { kind: 'redirect', status: reply.status, serviceMessage: header(reply.headers, 'location') };
	}
	const { text } = await readLimited(reply.stream, ERROR_BODY_LIMIT);
	const retryAfterMs = parseRetryAfter(header(reply.headers, 'retry-after'));
	const contentType = header(reply.headers, 'content-type');
	let parsed: unknown;
	try {
		parsed = text ? JSON.parse(text) : undefined;
	} catch {
		parsed = undefined;
	}
	if (parsed === undefined) {
		const html = looksLikeHtml(text, contentType);
		return {
			kind: 'http',
			status: reply.status,
			html,
			serviceMessage: html ? htmlHeadline(text) : text.trim().slice(0, 300) || undefined,
			requestId: findRequestId(undefined, reply.headers),
			retryAfterMs,
		};
	}
	return {
		kind: 'http',
		status: reply.status,
		code: findEnvelopeCode(parsed),
		serviceMessage: findServiceMessage(parsed),
		requestId: findRequestId(parsed, reply.headers),
		retryAfterMs,
		processed: typeof parsed === 'object' && parsed !== null,
	};
}

/** A 2xx reply can still carry an error in its envelope (`code` 4xx/5xx, `success: false`). */
function envelopeFailure(body: unknown, reply: RawReply): Failure | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const code = findEnvelopeCode(body);
	const numeric = typeof code === 'number' ? code : undefined;
	const failed = (body as IDataObject).success === false || (numeric !== undefined && numeric >= 400);
	if (!failed) return undefined;
	return {
		kind: 'http',
		status: numeric !== undefined && numeric < 600 ? numeric : reply.status,
		code,
		serviceMessage: findServiceMessage(body),
		requestId: findRequestId(body, reply.headers),
		processed: true,
	};
}

async function jsonAttempt(
	context: IExecuteFunctions,
	session: Session,
	call: JsonCall,
): Promise<Outcome<JsonReply>> {
	const reply = await send(
		context,
		session,
		{
			method: call.method,
			url: `${session.baseUrl}${call.path}`,
			body: call.body,
			timeoutMs: call.timeoutMs ?? DEFAULT_TIMEOUT_MS[call.purpose],
			accept: 'application/json',
		},
		false,
	);
	if (reply.status < 200 || reply.status >= 300) {
		return { ok: false, failure: await failureFromReply(reply) };
	}
	const { text, truncated } = await readLimited(reply.stream, JSON_BODY_LIMIT);
	if (truncated) return { ok: false, failure: { kind: 'tooLarge', status: reply.status } };
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		const contentType = header(reply.headers, 'content-type');
		const html = looksLikeHtml(text, contentType);
		return {
			ok: false,
			failure: {
				kind: 'malformed',
				status: reply.status,
				html,
				serviceMessage: html ? htmlHeadline(text) : undefined,
				requestId: findRequestId(undefined, reply.headers),
			},
		};
	}
	const failure = envelopeFailure(body, reply);
	if (failure) return { ok: false, failure };
	return { ok: true, value: { status: reply.status, body, requestId: findRequestId(body, reply.headers) } };
}

async function downloadAttempt<T>(
	context: IExecuteFunctions,
	session: Session,
	call: DownloadCall<T>,
): Promise<Outcome<T>> {
	const reply = await send(
		context,
		session,
		{ method: 'GET', url: call.url, timeoutMs: call.timeoutMs ?? DEFAULT_TIMEOUT_MS.download, accept: 'image/*, */*' },
		true,
	);
	if (reply.status < 200 || reply.status >= 300) {
		return { ok: false, failure: await failureFromReply(reply) };
	}
	const mimeType = header(reply.headers, 'content-type')?.split(';')[0].trim() || undefined;
	return { ok: true, value: await call.consume(reply.stream, { mimeType, finalUrl: reply.url }) };
}

function failureFromException(error: unknown): Failure {
	const networkCode = findNetworkCode(error);
	const message = error instanceof Error ? error.message : String(error);
	if (isTimeoutCode(networkCode)) return { kind: 'timeout', networkCode };
	return { kind: 'network', networkCode, serviceMessage: networkCode ? undefined : message };
}

function redactFailure(failure: Failure, secrets: readonly string[]): Failure {
	const redact = (value: string | undefined) => (value === undefined ? undefined : redactSecrets(value, secrets));
	return {
		...failure,
		serviceMessage: redact(failure.serviceMessage),
		requestId: redact(failure.requestId),
		code: typeof failure.code === 'string' ? redact(failure.code) : failure.code,
	};
}

function retryReason(failure: Failure): string {
	if (failure.kind === 'http') return `HTTP ${failure.status}`;
	return failure.networkCode ?? failure.kind;
}

function cancelledError(context: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(context.getNode(), 'The execution was cancelled', { itemIndex });
}

/**
 * The one path every request takes: attempt, classify, retry by the purpose's policy (honouring
 * Retry-After and the caller's deadline), and turn the last failure into a NodeApiError that says
 * what to do next and never contains the key.
 */
async function withRetries<T>(
	context: IExecuteFunctions,
	session: Session,
	call: CallBase,
	attempt: () => Promise<Outcome<T>>,
): Promise<T> {
	const policy = POLICY_BY_PURPOSE[call.purpose];
	const signal = context.getExecutionCancelSignal?.();
	for (let tries = 1; ; tries++) {
		let outcome: Outcome<T>;
		try {
			outcome = await attempt();
		} catch (error) {
			if (signal?.aborted) throw cancelledError(context, call.itemIndex);
			outcome = { ok: false, failure: failureFromException(error) };
		}
		if (outcome.ok) return outcome.value;
		const failure = redactFailure(outcome.failure, session.secrets);
		const delayMs = failure.retryAfterMs ?? backoffDelay(tries);
		const withinDeadline = call.deadline === undefined || Date.now() + delayMs < call.deadline;
		if (
			tries < MAX_ATTEMPTS[policy] &&
			isRetryable(policy, failure) &&
			delayMs <= MAX_RETRY_AFTER_MS &&
			withinDeadline
		) {
			const reason = retryReason(failure);
			session.retries.push({ purpose: call.purpose, reason, delayMs });
			context.logger.warn(
				`Product Image: ${call.purpose} got ${reason}; retry ${tries} of ${MAX_ATTEMPTS[policy] - 1} in ${delayMs} ms`,
				{ itemIndex: call.itemIndex, requestId: failure.requestId },
			);
			if (!(await sleepUnlessCancelled(delayMs, signal))) throw cancelledError(context, call.itemIndex);
			continue;
		}
		const { message, description } = describeFailure(failure, call.purpose, tries);
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
		// The router copies these onto the error item of Continue On Fail.
		Object.assign(error.context, call.errorContext, {
			requestId: failure.requestId,
			serviceCode: failure.code,
		});
		throw error;
	}
}

/** A JSON API call below the credential's base URL. */
export async function callService(this: IExecuteFunctions, call: JsonCall): Promise<JsonReply> {
	const session = await getSession(this);
	return await withRetries(this, session, call, async () => await jsonAttempt(this, session, call));
}

/** A GET of an image address, on the service's origin or elsewhere, handed to `consume` as a stream. */
export async function downloadStream<T>(this: IExecuteFunctions, call: DownloadCall<T>): Promise<T> {
	const session = await getSession(this);
	return await withRetries(this, session, call, async () => await downloadAttempt(this, session, call));
}
