import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';

import { discard } from './body';
import type { Session } from './session';
import { CREDENTIAL_TYPE } from './session';

const MAX_REDIRECTS = 5;
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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

/** A reply whose body is still unread. */
export interface RawReply {
	status: number;
	headers: Record<string, unknown>;
	stream: unknown;
	/** The address that answered, after redirects. */
	url: string;
}

export function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? String(value[0]) : typeof value === 'string' ? value : undefined;
}

function isHttpUrl(url: string): boolean {
	return /^https?:\/\//i.test(url);
}

/**
 * Sends one request. The Authorization header goes to the credential's own origin only; redirects
 * are followed here, hop by hop, because n8n's own redirect handling forwards it to any origin.
 * `at.url` follows the hops, so a request that throws can be told by the address it failed at.
 */
export async function send(
	context: IExecuteFunctions,
	session: Session,
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
		const response = (
			session.isServiceUrl(url)
				? await context.helpers.httpRequestWithAuthentication.call(
						context,
						CREDENTIAL_TYPE,
						options,
					)
				: await context.helpers.httpRequest(options)
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
