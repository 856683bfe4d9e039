import type { JsonObject } from 'n8n-workflow';

// What one attempt's failure is, read from a reply or an exception: the facts the retry rule
// decides by and the advice is chosen by (guidance.ts).

/** n8n refused the request before connecting: its SSRF protection (by IP range or name) or another guard. */
export interface Refusal {
	by: 'ipRange' | 'hostname' | 'n8n';
	/** As in the request's URL; `ip`, what n8n resolved it to. */
	host: string;
	ip?: string;
	message: string;
}

/** One attempt's failure: the retry policy decides on it, and only a request's last is shown. */
export interface Failure {
	kind:
		'http' | 'network' | 'timeout' | 'malformed' | 'redirect' | 'tooLarge' | 'notImage' | 'refused';
	status?: number;
	code?: string | number;
	serviceMessage?: string;
	requestId?: string;
	retryAfterMs?: number;
	/** For failures without a reply. */
	networkCode?: string;
	/** The reply was a web page: a proxy, a load balancer or the wrong base URL answered. */
	html?: boolean;
	/** The body looked like the service's own envelope: the request reached the service. */
	processed?: boolean;
	/** For a download that was not an image: its content type, and the address that answered. */
	contentType?: string;
	url?: string;
	/** The host of an address that is not the service's (a CDN, a store), for a download there. */
	foreignHost?: string;
	refusal?: Refusal;
}

const MESSAGE_KEYS = [
	'message',
	'msg',
	'error_description',
	'detail',
	'error',
	'title',
	'description',
];

export const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
export const asRecord = (value: unknown) => (isRecord(value) ? value : undefined);

/** Error bodies come in every shape; look where services usually put a human message. */
export function findServiceMessage(body: unknown, depth = 0): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	if (depth > 3) return undefined;
	if (Array.isArray(body)) {
		const parts = body.map((entry) => findServiceMessage(entry, depth + 1)).filter(Boolean);
		return parts.length ? parts.join('; ') : undefined;
	}
	const record = asRecord(body);
	if (!record) return undefined;
	for (const key of MESSAGE_KEYS) {
		const found = findServiceMessage(record[key], depth + 1);
		if (found) return found;
	}
	const errors = record.errors;
	return errors === undefined ? undefined : findServiceMessage(errors, depth + 1);
}

export function findEnvelopeCode(body: unknown): string | number | undefined {
	const record = asRecord(body);
	if (!record) return undefined;
	const code = record.code ?? asRecord(record.error)?.code;
	return typeof code === 'string' || typeof code === 'number' ? code : undefined;
}

export function findRequestId(
	body: unknown,
	headers?: Record<string, unknown>,
): string | undefined {
	const record = asRecord(body);
	const fromBody = record?.request_id ?? record?.requestId ?? asRecord(record?.error)?.request_id;
	if (typeof fromBody === 'string' && fromBody) return fromBody;
	const fromHeader = headers?.['x-request-id'];
	return typeof fromHeader === 'string' && fromHeader ? fromHeader : undefined;
}

/** `Retry-After` is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	const trimmed = value.trim();
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The codes Node gives a certificate it refuses: OpenSSL's verify results by name. */
const CERTIFICATE_CODE =
	'CERT_[A-Z_]+|CRL_[A-Z_]+|UNABLE_TO_[A-Z_]+|ERROR_IN_C(?:ERT|RL)_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED';

const NETWORK_CODE = new RegExp(
	`^(?:E[A-Z0-9_]+|ERR_[A-Z0-9_]+|UND_ERR_[A-Z0-9_]+|${CERTIFICATE_CODE})$`,
);

const TLS_CODE = new RegExp(`^(?:EPROTO$|ERR_SSL_|ERR_TLS_|${CERTIFICATE_CODE})`);

/** A TLS handshake or certificate failure: the host answered, but not with a connection Node trusts. */
export function isTlsCode(code: string | undefined): boolean {
	return code !== undefined && TLS_CODE.test(code);
}

/** Socket errors arrive wrapped (NodeApiError → AxiosError → system error); find the innermost code. */
export function findNetworkCode(error: unknown): string | undefined {
	let current: unknown = error;
	let code: string | undefined;
	for (let depth = 0; depth < 6 && current; depth++) {
		const record = asRecord(current);
		if (!record) break;
		const candidate = record.code;
		if (typeof candidate === 'string' && NETWORK_CODE.test(candidate)) code = candidate;
		const message = typeof record.message === 'string' ? record.message : '';
		if (!code && /socket hang up|aborted|premature close/i.test(message)) code = 'ECONNRESET';
		if (!code && /timeout/i.test(message)) code = 'ETIMEDOUT';
		current = record.cause ?? asRecord(record.errorResponse) ?? record.reason;
	}
	return code;
}

export function isTimeoutCode(code: string | undefined): boolean {
	return code === 'ETIMEDOUT' || code === 'ECONNABORTED' || code === 'ESOCKETTIMEDOUT';
}

/** Connection failures that happen before a request is sent: the service cannot have seen it. */
const NOTHING_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

export function nothingSent(failure: Failure): boolean {
	return failure.kind === 'network' && NOTHING_SENT_CODES.has(failure.networkCode ?? '');
}

/**
 * Only a refusal the service stated (4xx) or a connection that never opened rules out a task; a
 * gateway page, a cut connection, a timeout or an unreadable 2xx leave it open.
 */
export function submitMayHaveLanded(failure: Failure): boolean {
	if (failure.kind === 'redirect' || failure.kind === 'refused' || nothingSent(failure))
		return false;
	// A web page in a 2xx is a site at the Base URL, not a gateway in front of the service.
	if (failure.kind === 'malformed' && failure.html) return false;
	if (failure.kind === 'http') return (failure.status ?? 0) >= 500;
	return true;
}

/** Built from redacted strings only. */
export function failureResponse(failure: Failure): JsonObject {
	const response: JsonObject = {};
	if (failure.status !== undefined) response.httpStatus = failure.status;
	if (failure.code !== undefined) response.code = failure.code;
	if (failure.serviceMessage !== undefined) response.message = failure.serviceMessage;
	if (failure.requestId !== undefined) response.request_id = failure.requestId;
	if (failure.networkCode !== undefined) response.networkCode = failure.networkCode;
	return response;
}

/**
 * Services sometimes echo request headers back in error bodies: everything from the service passes
 * through here before it reaches a message, a hint, a log line or an output item.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result
		.replace(/(bearer\s+)[^\s"',;}]+/gi, '$1[redacted]')
		.replace(/("?authorization"?\s*[:=]\s*"?)(?!\[redacted\])[^"\n,}]+/gi, '$1[redacted]');
}

export function redactFailure(failure: Failure, secrets: readonly string[]): Failure {
	const redact = (value: string | undefined) =>
		value === undefined ? undefined : redactSecrets(value, secrets);
	return {
		...failure,
		serviceMessage: redact(failure.serviceMessage),
		requestId: redact(failure.requestId),
		code: typeof failure.code === 'string' ? redact(failure.code) : failure.code,
	};
}

/** n8n's mark on an error it will not retry (`markNonRetryable`), read without importing n8n. */
const NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

/** n8n's `SsrfBlocked…Error`s, wrapped in a NodeApiError by the helpers with authentication. */
export function findRefusal(error: unknown, url: string): Refusal | undefined {
	let level = asRecord(error);
	for (let depth = 0; depth < 6 && level; depth++, level = asRecord(level.cause)) {
		const ssrf = /^SsrfBlocked(Ip|Hostname)Error$/.exec(String(level.name));
		if (!ssrf && (level as Record<symbol, unknown>)[NON_RETRYABLE] !== true) continue;
		const ip = typeof level.ip === 'string' ? level.ip : undefined;
		const host = URL.canParse(url)
			? new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
			: String(level.hostname ?? ip ?? url);
		const by = ssrf ? (ssrf[1] === 'Ip' ? 'ipRange' : 'hostname') : 'n8n';
		return { by, host, ip, message: String(level.message) };
	}
	return undefined;
}

/** `url`: the address the request failed at. */
export function failureFromException(error: unknown, url = ''): Failure {
	const refusal = findRefusal(error, url);
	if (refusal) return { kind: 'refused', refusal };
	const networkCode = findNetworkCode(error);
	const message = error instanceof Error ? error.message : String(error);
	if (isTimeoutCode(networkCode)) return { kind: 'timeout', networkCode };
	return { kind: 'network', networkCode, serviceMessage: networkCode ? undefined : message };
}
