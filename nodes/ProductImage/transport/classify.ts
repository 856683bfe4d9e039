import type { IDataObject } from 'n8n-workflow';

import {
	discard,
	ERROR_BODY_LIMIT,
	htmlHeadline,
	JSON_BODY_LIMIT,
	looksLikeHtml,
	looksLikeText,
	peekFirstChunk,
	readLimited,
	xmlErrorHeadline,
} from './body';
import type { Failure } from './failure';
import {
	findEnvelopeCode,
	findNetworkCode,
	findRequestId,
	findServiceMessage,
	isTimeoutCode,
	parseRetryAfter,
} from './failure';
import type { RawReply } from './send';
import { header, REDIRECT_STATUSES } from './send';

/** What a reply means: a value to hand on, or the failure the retry policy decides on. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export interface JsonReply {
	status: number;
	body: unknown;
	requestId?: string;
}

export interface DownloadInfo {
	mimeType?: string;
	finalUrl: string;
}

function isSuccess(status: number): boolean {
	return status >= 200 && status < 300;
}

function mediaType(headers: Record<string, unknown>): string | undefined {
	return header(headers, 'content-type')?.split(';')[0].trim().toLowerCase() || undefined;
}

function parseJson(text: string): unknown {
	try {
		return text ? JSON.parse(text) : undefined;
	} catch {
		return undefined;
	}
}

/** A non-2xx reply: its status, and what the body says about who answered and why. */
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
	const retryAfterMs = parseRetryAfter(header(reply.headers, 'retry-after'));
	const parsed = parseJson(text);
	if (parsed === undefined) {
		const html = looksLikeHtml(text, header(reply.headers, 'content-type'));
		return {
			kind: 'http',
			status: reply.status,
			html,
			serviceMessage: html
				? htmlHeadline(text)
				: (xmlErrorHeadline(text) ?? (text.trim() || undefined)),
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

/** A reply to an API call: the parsed JSON, or why it is not a usable one. */
export async function classifyJsonReply(reply: RawReply): Promise<Outcome<JsonReply>> {
	if (!isSuccess(reply.status)) return { ok: false, failure: await failedReply(reply) };
	const { text, truncated } = await readLimited(reply.stream, JSON_BODY_LIMIT);
	if (truncated) return { ok: false, failure: { kind: 'tooLarge', status: reply.status } };
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		const html = looksLikeHtml(text, header(reply.headers, 'content-type'));
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
	return {
		ok: true,
		value: { status: reply.status, body, requestId: findRequestId(body, reply.headers) },
	};
}

const GENERIC_TYPES = new Set([
	'application/octet-stream',
	'binary/octet-stream',
	'application/binary',
]);

/**
 * Whether a 2xx download is an image: an image/* type is trusted; a generic or missing type is
 * judged by the first bytes (markup or JSON is a page, not an image); any other type is not one.
 */
export async function classifyDownloadReply(reply: RawReply): Promise<Outcome<DownloadInfo>> {
	if (!isSuccess(reply.status)) return { ok: false, failure: await failedReply(reply) };
	const mimeType = mediaType(reply.headers);
	const info = { mimeType, finalUrl: reply.url };
	if (mimeType?.startsWith('image/')) return { ok: true, value: info };
	if (mimeType === undefined || GENERIC_TYPES.has(mimeType)) {
		const first = await peekFirstChunk(reply.stream);
		if (!first || !looksLikeText(first)) return { ok: true, value: info };
	}
	const { text } = await readLimited(reply.stream, ERROR_BODY_LIMIT);
	const parsed = parseJson(text);
	return {
		ok: false,
		failure: {
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
		},
	};
}

/** A request that threw: the connection failed, timed out or was cut. */
export function failureFromException(error: unknown): Failure {
	const networkCode = findNetworkCode(error);
	const message = error instanceof Error ? error.message : String(error);
	if (isTimeoutCode(networkCode)) return { kind: 'timeout', networkCode };
	return { kind: 'network', networkCode, serviceMessage: networkCode ? undefined : message };
}
