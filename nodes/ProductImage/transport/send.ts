import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import type { Failure } from './errors';
import { findEnvelopeCode, findRequestId, findServiceMessage, parseRetryAfter } from './errors';

// One attempt of a request: send it, read the reply's body within limits, and say what the reply
// means.

export const CREDENTIAL_TYPE = 'productImageApi';

/** Base URL, redirect target, image addresses: anything else is a mistake or an attack. */
export function isHttpUrl(url: string): boolean {
	return /^https?:\/\/[^/\s]+/i.test(url) && URL.canParse(url);
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** JSON replies are small; anything larger is not the service talking. */
const JSON_BODY_LIMIT = 10 * 1024 * 1024;
/** Error bodies only feed a message. */
const ERROR_BODY_LIMIT = 64 * 1024;

export interface OutgoingRequest {
	method: 'GET' | 'POST';
	url: string;
	body?: IDataObject | FormData;
	timeoutMs: number;
	accept: string;
	headers?: Record<string, string>;
	/** Downloads follow redirects (the spec says so); API calls report them. */
	followRedirects: boolean;
}

export interface RawReply {
	status: number;
	headers: Record<string, unknown>;
	/** The body, still unread. */
	stream: unknown;
	/** The address that answered, after redirects. */
	url: string;
}

/** What a reply means: a value to hand on, or the failure the retry policy decides on. */
export type Classified<T> = { ok: true; value: T } | { ok: false; failure: Failure };

const failed = (failure: Failure) => ({ ok: false, failure }) as const;

export interface JsonReply {
	status: number;
	body: unknown;
	requestId?: string;
}

export interface DownloadInfo {
	mimeType?: string;
	finalUrl: string;
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
}

/**
 * Redirects are followed here, hop by hop, because n8n's own handling forwards the Authorization
 * header to any origin; it goes to the credential's origin only. `at.url` follows the hops, so a
 * request that throws can be told by the address it failed at.
 */
export async function send(
	context: IExecuteFunctions,
	isServiceUrl: (url: string) => boolean,
	request: OutgoingRequest,
	at?: { url: string },
): Promise<RawReply> {
	let { url, method, body } = request;
	for (let hop = 0; ; hop++) {
		const options: IHttpRequestOptions = {
			method,
			url,
			headers: { Accept: request.accept, ...request.headers },
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
		if (at) at.url = url;
		const { helpers } = context;
		const response = (
			isServiceUrl(url)
				? await helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options)
				: await helpers.httpRequest(options)
		) as IN8nHttpFullResponse;
		const headers = (response.headers ?? {}) as Record<string, unknown>;
		const location = header(headers, 'location');
		if (
			!request.followRedirects ||
			!REDIRECT_STATUSES.has(response.statusCode) ||
			!location ||
			hop >= MAX_REDIRECTS
		) {
			return { status: response.statusCode, headers, stream: response.body, url };
		}
		discard(response.body);
		url = new URL(location, url).href;
		if (!isHttpUrl(url)) return { status: response.statusCode, headers, stream: undefined, url };
		if (response.statusCode === 303) {
			method = 'GET';
			body = undefined;
		}
	}
}

type ByteStream = AsyncIterable<Uint8Array | string> & { destroy?: () => void };

/** What a peek needs of a Node readable stream (a download body is an IncomingMessage). */
interface PausableStream {
	once(event: string, listener: (...args: never[]) => void): unknown;
	on(event: 'newListener', listener: (event: string | symbol) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	pause(): unknown;
	resume(): unknown;
	isPaused(): boolean;
	unshift(chunk: Buffer): void;
}

/**
 * A stream paused by hand stays paused when a reader later adds a 'data' listener (n8n's
 * in-memory binary mode reads that way); resume it for that reader. Pipes resume by themselves.
 */
function resumeForNextReader(stream: PausableStream): void {
	const onNewListener = (event: string | symbol) => {
		if (event !== 'data') return;
		stream.removeListener('newListener', onNewListener);
		// The listener is added right after this event: resume once it is there.
		void Promise.resolve().then(() => {
			if (stream.isPaused()) stream.resume();
		});
	};
	stream.on('newListener', onNewListener);
}

async function readLimited(
	stream: unknown,
	limit: number,
): Promise<{ text: string; truncated: boolean }> {
	if (typeof stream === 'string')
		return { text: stream.slice(0, limit), truncated: stream.length > limit };
	if (stream === undefined || stream === null) return { text: '', truncated: false };
	if (!isAsyncIterable(stream)) return { text: JSON.stringify(stream), truncated: false };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.from(chunk);
		size += buffer.length;
		if (size > limit) {
			chunks.push(buffer.subarray(0, buffer.length - (size - limit)));
			stream.destroy?.();
			return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
		}
		chunks.push(buffer);
	}
	return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/** A reply whose body is not wanted still has to be consumed, or its socket is never freed. */
function discard(stream: unknown): void {
	if (stream) (stream as ByteStream).destroy?.();
}

function isAsyncIterable(value: unknown): value is ByteStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
	);
}

function isPausable(value: unknown): value is PausableStream {
	const record = value as Record<string, unknown> | null;
	return (
		typeof record?.once === 'function' &&
		typeof record.unshift === 'function' &&
		typeof record.pause === 'function' &&
		typeof record.isPaused === 'function'
	);
}

/**
 * The first chunk is put back at the front of the same stream, so whoever reads it next (n8n's
 * binary store) still gets every byte, and nothing beyond it is buffered.
 */
export async function peekFirstChunk(stream: unknown): Promise<Buffer | undefined> {
	if (Buffer.isBuffer(stream)) return stream;
	if (typeof stream === 'string') return Buffer.from(stream);
	if (!isPausable(stream)) return undefined;
	return await new Promise<Buffer | undefined>((resolve, reject) => {
		const listeners = {
			data: (chunk: Buffer) => {
				stream.pause();
				stream.unshift(chunk);
				resumeForNextReader(stream);
				settle(() => resolve(Buffer.from(chunk)));
			},
			end: () => settle(() => resolve(undefined)),
			error: (error?: Error) => settle(() => reject(error)),
		};
		const settle = (then: () => void) => {
			for (const [event, listener] of Object.entries(listeners))
				stream.removeListener(event, listener);
			then();
		};
		for (const [event, listener] of Object.entries(listeners)) stream.once(event, listener);
	});
}

/** The first heading or title of an HTML error page, which is what a person would read. */
export function htmlHeadline(html: string): string | undefined {
	const match = /<(title|h1)[^>]*>([^<]{1,200})</i.exec(html);
	return match ? match[2].trim() : undefined;
}

/** A store's or CDN's XML error as "Code: Message": the markup means nothing to a person. */
export function xmlErrorHeadline(xml: string): string | undefined {
	if (!/^\s*(<\?xml[^>]*>\s*)?<Error[\s>]/i.test(xml)) return undefined;
	const field = (name: string) =>
		new RegExp(`<${name}>([^<]{1,4000})</${name}>`, 'i').exec(xml)?.[1].trim();
	const parts = [field('Code'), field('Message')].filter(Boolean);
	return parts.length ? decodeEntities(parts.join(': ')) : undefined;
}

const NAMED_ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: '\u00a0',
};

export function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
		if (code[0] === '#') {
			const point =
				code[1] === 'x' || code[1] === 'X'
					? parseInt(code.slice(2), 16)
					: parseInt(code.slice(1), 10);
			return Number.isFinite(point) && point > 0 && point <= 0x10ffff
				? String.fromCodePoint(point)
				: whole;
		}
		return NAMED_ENTITIES[code.toLowerCase()] ?? whole;
	});
}

export function looksLikeHtml(text: string, contentType: string | undefined): boolean {
	return /text\/html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)/i.test(text);
}

/** Markup or JSON: what a web page, an XML error or an API error starts with, and no image does. */
export function looksLikeText(bytes: Buffer): boolean {
	const start = bytes
		.subarray(0, 512)
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart();
	if (/<svg[\s>]/i.test(start)) return false;
	return /^(<(!doctype|html|head|body|\?xml|error)|\{|\[)/i.test(start);
}

export function parseJson(text: string): unknown {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

/** A non-2xx reply: what the body says about who answered and why. */
async function failedReply(reply: RawReply): Promise<Failure> {
	if (REDIRECT_STATUSES.has(reply.status)) {
		discard(reply.stream);
		return {
			kind: 'redirect',
			status: reply.status,
			serviceMessage: header(reply.headers, 'location'),
		};
	}
	const { text } = await readLimited(reply.stream, ERROR_BODY_LIMIT);
	const parsed = parseJson(text);
	const failure: Failure = {
		kind: 'http',
		status: reply.status,
		requestId: findRequestId(parsed, reply.headers),
		retryAfterMs: parseRetryAfter(header(reply.headers, 'retry-after')),
	};
	if (parsed !== undefined) {
		const processed = typeof parsed === 'object' && parsed !== null;
		const serviceMessage = findServiceMessage(parsed);
		return { ...failure, code: findEnvelopeCode(parsed), serviceMessage, processed };
	}
	const html = looksLikeHtml(text, header(reply.headers, 'content-type'));
	const said = html ? htmlHeadline(text) : (xmlErrorHeadline(text) ?? (text.trim() || undefined));
	return { ...failure, html, serviceMessage: said };
}

/** A 2xx reply can still carry an error in its envelope (`code` 4xx/5xx, `success: false`). */
function envelopeFailure(body: unknown, reply: RawReply): Failure | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const code = findEnvelopeCode(body);
	const numeric = typeof code === 'number' ? code : undefined;
	const failed =
		(body as IDataObject).success === false || (numeric !== undefined && numeric >= 400);
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

export async function classifyJsonReply(reply: RawReply): Promise<Classified<JsonReply>> {
	if (reply.status < 200 || reply.status >= 300) return failed(await failedReply(reply));
	const { text, truncated } = await readLimited(reply.stream, JSON_BODY_LIMIT);
	if (truncated) return failed({ kind: 'tooLarge', status: reply.status });
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		const html = looksLikeHtml(text, header(reply.headers, 'content-type'));
		return failed({
			kind: 'malformed',
			status: reply.status,
			html,
			serviceMessage: html ? htmlHeadline(text) : undefined,
			requestId: findRequestId(undefined, reply.headers),
		});
	}
	const failure = envelopeFailure(body, reply);
	if (failure) return failed(failure);
	return {
		ok: true,
		value: { status: reply.status, body, requestId: findRequestId(body, reply.headers) },
	};
}

/** Types that say only "bytes": object stores answer them for any file. */
export const GENERIC_TYPES = new Set([
	'application/octet-stream',
	'binary/octet-stream',
	'application/binary',
]);

/** An image/* type is trusted; a generic or missing one is judged by the first bytes. */
export async function classifyDownloadReply(reply: RawReply): Promise<Classified<DownloadInfo>> {
	if (reply.status < 200 || reply.status >= 300)
		return failed({ ...(await failedReply(reply)), url: reply.url });
	const contentType = header(reply.headers, 'content-type');
	const mimeType = contentType?.split(';')[0].trim().toLowerCase() || undefined;
	const info = { mimeType, finalUrl: reply.url };
	if (mimeType?.startsWith('image/')) return { ok: true, value: info };
	if (mimeType === undefined || GENERIC_TYPES.has(mimeType)) {
		const first = await peekFirstChunk(reply.stream);
		if (!first || !looksLikeText(first)) return { ok: true, value: info };
	}
	const { text } = await readLimited(reply.stream, ERROR_BODY_LIMIT);
	const parsed = parseJson(text);
	return failed({
		kind: 'notImage',
		status: reply.status,
		contentType: mimeType ?? 'no content type',
		html: looksLikeHtml(text, mimeType),
		serviceMessage:
			htmlHeadline(text) ??
			xmlErrorHeadline(text) ??
			(parsed === undefined ? undefined : findServiceMessage(parsed)),
		requestId: findRequestId(parsed, reply.headers),
		url: reply.url,
	});
}
