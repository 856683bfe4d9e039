import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import type { z } from 'zod';

import { shapeAdvice } from './guidance';
import type { OptionTimedKind, RequestKind } from './requestKinds';
import { REQUEST_KINDS } from './requestKinds';
import type { CallBase } from './retry';
import { withRetries } from './retry';
import { serviceAccess } from './runState';
import type { DownloadInfo, JsonReply, OutgoingRequest } from './send';
import { classifyDownloadReply, classifyJsonReply } from './send';

// Everything outside transport/ imports from here. A request goes index.ts → retry.ts (waiting in
// pause.ts) → send.ts; errors.ts and guidance.ts turn its last failure into the user's error,
// refusal.ts when n8n itself refused to send it.

export {
	findEnvelopeCode,
	findNetworkCode,
	findServiceMessage,
	isRecord,
	isTlsCode,
	redactSecrets,
} from './errors';
export type { Wording } from './guidance';
export * from './refusal';
export * from './words';
import { redactSecrets } from './errors';
export { CREDENTIAL_PROBE_TASK_ID, ENDPOINTS, MAX_RETRY_AFTER_MS, taskPath } from './requestKinds';
export { sleepUnlessCancelled } from './pause';
export { backoffDelay } from './retry';
export type { AcceptedTask } from './runState';
export {
	isHttpUrl,
	normalizeBaseUrl,
	runStateOf,
	serviceAccessIfRead,
	stopSignal,
} from './runState';
export {
	decodeEntities,
	header,
	htmlHeadline,
	isGenericMediaType,
	looksLikeHtml,
	parseJsonObject,
	peekFirstChunk,
} from './send';

/** Kinds whose timeout is an operation's option (Timeout, Submit Timeout) must be given it. */
type KindAndTimeout =
	| { kind: OptionTimedKind; timeoutMs: number }
	| { kind: Exclude<RequestKind, OptionTimedKind>; timeoutMs?: number };

export type JsonCall = CallBase &
	KindAndTimeout & {
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
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
	const record = body as Record<string, unknown>;
	const data = record.data;
	const beside = Object.fromEntries(
		Object.entries(record).filter(([key]) => !ENVELOPE_KEYS.has(key) && key !== 'data'),
	);
	if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
		return Object.keys(beside).length ? { ...beside, ...data } : (data as Record<string, unknown>);
	}
	return beside;
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
