import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

import type { Failure } from './errors';
import {
	failureFromException,
	failureResponse,
	isRecord,
	redactFailure,
	redactSecrets,
	submitMayHaveLanded,
} from './errors';
import type { Wording } from './guidance';
import { BASE_URL, describeFailure, resumeAdvice, shapeAdvice } from './guidance';
import type { OptionTimedKind, RequestKind } from './retry';
import {
	isTransient,
	MAX_ATTEMPTS,
	RateLimitGate,
	REQUEST_KINDS,
	retryDelay,
	sleepUnlessCancelled,
} from './retry';
import type { Classified, DownloadInfo, JsonReply, OutgoingRequest, RawReply } from './send';
import { classifyDownloadReply, classifyJsonReply, CREDENTIAL_TYPE, isHttpUrl, send } from './send';

// Every request of the node goes through here: the run's state (its stop, its rate-limit pause),
// the credential, the retries (retry.ts decides them, send.ts makes each attempt) and the error
// of the last failure (errors.ts reads it, guidance.ts words it).

export const ENDPOINTS = {
	upload: '/v1/open/uploads/images',
	generations: '/v1/open/product-images/generations',
	analysis: '/v1/open/product-analysis',
	aPlusPlans: '/v1/open/aplus/plans',
} as const;

export function taskPath(taskId: string): string {
	return `/v1/open/tasks/${encodeURIComponent(taskId)}`;
}

/** The credential, read once per node run. */
export interface ServiceAccess {
	baseUrl: string;
	secrets: string[];
	isServiceUrl(url: string): boolean;
}

/** A generation the service accepted during this node run: it is billed whatever happens next. */
export interface AcceptedTask {
	itemIndex: number;
	taskId: string;
}

/**
 * The output is lost when an item fails without Continue On Fail: from then on nothing more is
 * sent (no submit, no retry), the waits end, and the run's error lists the accepted tasks.
 */
export interface RunState {
	/** Requests already on the wire are not cut: a submit's reply names a billed task. */
	stop: AbortController;
	acceptedTasks: AcceptedTask[];
	/** For the run's hint. */
	retries: Array<{ reason: string }>;
	/** Every request to the service waits here while the service asks for a pause (429). */
	rateLimit: RateLimitGate;
	/** Named by 429 advice. */
	concurrencyLabel?: string;
	service?: Promise<ServiceAccess>;
}

export function normalizeBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}

function originOf(url: string): string | undefined {
	return URL.canParse(url) ? new URL(url).origin : undefined;
}

async function readServiceAccess(context: IExecuteFunctions): Promise<ServiceAccess> {
	const credentials = await context.getCredentials<{ baseUrl?: string; apiKey?: string }>(
		CREDENTIAL_TYPE,
	);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const origin = originOf(baseUrl);
	if (!origin || !isHttpUrl(baseUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's ${BASE_URL} is not an http(s) URL`,
			{
				description: `It reads "${baseUrl}". Open the Product Image API credential and enter the service's URL, such as https://api.example.com.`,
			},
		);
	}
	const apiKey = String(credentials.apiKey ?? '');
	return { baseUrl, secrets: [apiKey], isServiceUrl: (url) => originOf(url) === origin };
}

const runStates = new WeakMap<IExecuteFunctions, RunState>();

export function runStateOf(context: IExecuteFunctions): RunState {
	let state = runStates.get(context);
	if (!state) {
		state = {
			stop: new AbortController(),
			acceptedTasks: [],
			retries: [],
			rateLimit: new RateLimitGate(),
		};
		runStates.set(context, state);
	}
	return state;
}

export async function serviceAccess(context: IExecuteFunctions): Promise<ServiceAccess> {
	const state = runStateOf(context);
	state.service ??= readServiceAccess(context);
	return await state.service;
}

/** Undefined when no request read it, or the credential failed. */
export async function serviceAccessIfRead(
	context: IExecuteFunctions,
): Promise<ServiceAccess | undefined> {
	return await runStateOf(context).service?.catch(() => undefined);
}

/** Ends a pause and refuses the next attempt. */
export function stopSignal(context: IExecuteFunctions): AbortSignal {
	const cancel = context.getExecutionCancelSignal?.();
	const stop = runStateOf(context).stop.signal;
	return cancel ? AbortSignal.any([cancel, stop]) : stop;
}

interface CallBase {
	itemIndex: number;
	/** Epoch ms after which no retry is started (the wait's overall deadline). */
	deadline?: number;
	/** Facts the caller knows (a task id) that belong on the error if this call fails. */
	errorContext?: IDataObject;
	wording?: Wording;
}

interface RetryCall extends CallBase {
	kind: RequestKind;
	/** The X-Request-Id this node sent, quoted when the service gave none. */
	sentRequestId?: string;
}

/** Kinds whose timeout is an operation's option (Timeout, Submit Timeout) must be given it. */
export type JsonCall = CallBase &
	(
		| { kind: OptionTimedKind; timeoutMs: number }
		| { kind: Exclude<RequestKind, OptionTimedKind>; timeoutMs?: number }
	) & {
		method: 'GET' | 'POST';
		path: string;
		body?: IDataObject | FormData;
	};

export interface DownloadCall<T> extends CallBase {
	kind: 'download';
	url: string;
	/** Runs inside the retry loop, so a body cut off mid-way is fetched again. */
	consume: (stream: unknown, info: DownloadInfo) => Promise<T>;
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
async function withRetries<T>(
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
			classified = await classify(await send(context, service.isServiceUrl, request, at));
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

/** An image address, on the service's origin or elsewhere, handed to `consume` as a stream. */
export async function downloadStream<T>(
	this: IExecuteFunctions,
	call: DownloadCall<T>,
): Promise<T> {
	const service = await serviceAccess(this);
	const request: OutgoingRequest = {
		method: 'GET',
		url: call.url,
		timeoutMs: REQUEST_KINDS.download.timeoutMs,
		accept: 'image/*, */*',
		followRedirects: true,
	};
	return await withRetries(this, service, call, request, async (reply) => {
		const classified = await classifyDownloadReply(reply);
		if (!classified.ok) return classified;
		return { ok: true, value: await call.consume(reply.stream, classified.value) };
	});
}

const ENVELOPE_KEYS = new Set(['code', 'request_id', 'requestId', 'message', 'msg', 'success']);

/**
 * The spec wraps results in `{code, data, request_id}` but leaves open whether results sit inside
 * `data`: take `data` when it is an object, with any field beside it (a task's `result`) that it
 * lacks; otherwise the top level without the envelope's own fields.
 */
export function unwrapEnvelope(body: unknown): Record<string, unknown> {
	if (!isRecord(body)) return {};
	const beside = Object.fromEntries(
		Object.entries(body).filter(([key]) => !ENVELOPE_KEYS.has(key) && key !== 'data'),
	);
	if (!isRecord(body.data)) return beside;
	return Object.keys(beside).length ? { ...beside, ...body.data } : body.data;
}

const MAX_QUOTED_REPLY = 2000;

export function quoteReply(value: unknown, secrets: readonly string[]): string {
	const text = redactSecrets(typeof value === 'string' ? value : JSON.stringify(value), secrets);
	return text.length > MAX_QUOTED_REPLY
		? `${text.slice(0, MAX_QUOTED_REPLY - 1)}… (${text.length} characters in all)`
		: text;
}

/**
 * A reply that could not be read may hold what was paid for (a plan, a task's images): the error
 * quotes it, redacted and bounded, so it is not lost with the run.
 */
function parseResult<S extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	schema: S,
	reply: JsonReply,
	call: JsonCall,
	secrets: readonly string[],
): z.infer<S> {
	const { kind, itemIndex } = call;
	const result = unwrapEnvelope(reply.body);
	const parsed = schema.safeParse(result);
	if (parsed.success) return parsed.data;
	const issues = parsed.error.issues
		.slice(0, 5)
		.map(({ path, message }) => `${path.length ? path.join('.') : '(the result)'}: ${message}`)
		.join('; ');
	const advice = shapeAdvice(kind, reply.requestId);
	const sent = quoteReply(result, secrets);
	const requestId =
		reply.requestId && !advice.includes(reply.requestId) ? ` Request ID: ${reply.requestId}.` : '';
	const error = new NodeApiError(
		context.getNode(),
		{ request_id: reply.requestId ?? null, issues },
		{
			message: `The service's reply to the ${REQUEST_KINDS[kind].noun} lacks fields this node needs`,
			description: `Missing or unexpected: ${issues}.${requestId} ${advice} The service sent (redacted): ${sent}`,
			itemIndex,
		},
	);
	Object.assign(error.context, call.errorContext);
	error.context.requestId = reply.requestId;
	error.context.serviceReply = sent;
	// A submit answered without a task ID may still have made one.
	if (kind === 'submit') error.context.mayHaveCreatedTask = true;
	throw error;
}

export async function requestResult<S extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	call: JsonCall,
	schema: S,
): Promise<{ result: z.infer<S>; requestId?: string }> {
	const service = await serviceAccess(context);
	// A submit carries an id of its own, so a submit whose reply never came can still be traced.
	const sentRequestId = call.kind === 'submit' ? `n8n-${randomUUID()}` : undefined;
	const request: OutgoingRequest = {
		method: call.method,
		url: `${service.baseUrl}${call.path}`,
		body: call.body,
		timeoutMs:
			call.timeoutMs ?? REQUEST_KINDS[call.kind as Exclude<RequestKind, OptionTimedKind>].timeoutMs,
		accept: 'application/json',
		headers: sentRequestId ? { 'X-Request-Id': sentRequestId } : undefined,
		followRedirects: false,
	};
	const retried = { ...call, sentRequestId };
	const reply = await withRetries(context, service, retried, request, classifyJsonReply);
	const result = parseResult(context, schema, reply, call, service.secrets);
	return { result, requestId: reply.requestId };
}
