import type { INodeCredentialTestResult } from 'n8n-workflow';

import { htmlHeadline, looksLikeHtml } from '../transport/body';
import { findServiceMessage } from '../transport/failure';
import { CREDENTIAL_PROBE_TASK_ID, taskPath } from '../transport/endpoints';
import { redactSecrets } from '../transport/redact';

/**
 * The service has no "who am I" endpoint, so the test asks for a task id that can never exist:
 * the cheapest read that needs the key.
 */
export const PROBE_PATH = taskPath(CREDENTIAL_PROBE_TASK_ID);

/** What came back for the probe, as n8n's request helper hands it over. */
export interface ProbeReply {
	statusCode: number;
	statusMessage?: string;
	headers: Record<string, unknown>;
	body: string;
}

/** The id the service gives every reply: `request_id` in its JSON envelope, `req_…` in shape. */
function serviceRequestId(
	json: Record<string, unknown> | undefined,
	headers: Record<string, unknown>,
): string | undefined {
	if (!json) return undefined;
	if (typeof json.request_id === 'string' && json.request_id) return json.request_id;
	// Error replies whose body holds only `{detail}` still carry the id in the header.
	const header = headers['x-request-id'];
	return typeof header === 'string' && header.startsWith('req_') ? header : undefined;
}

function parseObject(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === 'object' && !Array.isArray(value)
			? (value as Record<string, unknown>)
			: undefined;
	} catch {
		return undefined;
	}
}

function header(headers: Record<string, unknown>, name: string): string | undefined {
	const value = headers[name];
	return typeof value === 'string' ? value : undefined;
}

/** What a person would see at the address: the status, and the page's title or the start of the text. */
function describeFound(reply: ProbeReply, json: Record<string, unknown> | undefined): string {
	const status = `HTTP ${reply.statusCode}${reply.statusMessage ? ` ${reply.statusMessage}` : ''}`;
	const contentType = header(reply.headers, 'content-type')?.split(';')[0].trim();
	if (looksLikeHtml(reply.body, contentType)) {
		const title = htmlHeadline(reply.body);
		return `${status} with a web page${title ? ` titled "${title}"` : ''}`;
	}
	if (json)
		return `${status} with JSON that is not the service's reply (no request_id): ${JSON.stringify(json).slice(0, 120)}`;
	const text = reply.body.trim().replace(/\s+/g, ' ').slice(0, 120);
	return `${status}${contentType ? ` (${contentType})` : ''}${text ? `: "${text}"` : ' with an empty body'}`;
}

/**
 * Where a redirect of the probe leads. The same request moved elsewhere (http → https, a new
 * host) gives the Base URL to use; a redirect to another path (a sign-in page) does not.
 */
function redirectVerdict(
	statusCode: number,
	location: string,
	probeUrl: string,
): INodeCredentialTestResult {
	let target: URL;
	try {
		target = new URL(location, probeUrl);
	} catch {
		return error(
			`The Base URL redirects (HTTP ${statusCode}) to "${location.slice(0, 200)}", which is not an address. Check the Base URL.`,
		);
	}
	if (target.pathname.endsWith(PROBE_PATH)) {
		const baseUrl = `${target.origin}${target.pathname.slice(0, -PROBE_PATH.length)}`;
		return error(
			`The Base URL redirects (HTTP ${statusCode}): use the address it redirects to, ${baseUrl}, as the Base URL. The node sends the key to the Base URL's origin only and does not follow redirects.`,
		);
	}
	return error(
		`The Base URL redirects (HTTP ${statusCode}) to ${target.href}, which is not the service's task address (a sign-in page?). Check the Base URL.`,
	);
}

/**
 * Only the service's own answer to a valid key passes: its JSON envelope (with `request_id`)
 * saying the task is unknown (404) or, should it validate the id first, that the id is
 * malformed (400, 422). Anything else names what answered instead.
 */
export function probeVerdict(
	reply: ProbeReply,
	probeUrl: string,
	secrets: readonly string[],
): INodeCredentialTestResult {
	const json = parseObject(reply.body);
	const requestId = serviceRequestId(json, reply.headers);
	const { statusCode } = reply;
	const where = new URL(probeUrl).origin;
	const said = (fallback: string) => redactSecrets(findServiceMessage(json) ?? fallback, secrets);

	if (statusCode >= 300 && statusCode < 400) {
		const location = header(reply.headers, 'location');
		if (!location)
			return error(
				`${where} answered HTTP ${statusCode} (a redirect) without saying where to. Check the Base URL.`,
			);
		return redirectVerdict(statusCode, location, probeUrl);
	}
	if (requestId) {
		const tag = ` [request ${requestId}]`;
		if (statusCode === 401)
			return error(
				`The service rejected the API key (HTTP 401: ${said('unauthorized')}). Copy the key again from your account.${tag}`,
			);
		if (statusCode === 403)
			return error(
				`The service refused the API key (HTTP 403: ${said('forbidden')}). It needs a full member-level key.${tag}`,
			);
		if (
			statusCode === 404 ||
			statusCode === 400 ||
			statusCode === 422 ||
			(statusCode >= 200 && statusCode < 300)
		) {
			return { status: 'OK', message: `Connection successful: the service accepted the key${tag}` };
		}
		return error(
			`The service answered HTTP ${statusCode}: ${said('no message')}. Try again later.${tag}`,
		);
	}
	return error(
		`${where} is not the Product Image service: GET ${PROBE_PATH} answered ${redactSecrets(describeFound(reply, json), secrets)}. Check the Base URL.`,
	);
}

/**
 * The service refuses a probe without a key. An address that answers it like the keyed one
 * never looked at the key, so the keyed answer proves nothing: undefined when all is well.
 */
export function keylessVerdict(
	reply: ProbeReply,
	probeUrl: string,
): INodeCredentialTestResult | undefined {
	if (reply.statusCode === 401 || reply.statusCode === 403) return undefined;
	const { origin, pathname } = new URL(probeUrl.slice(0, -PROBE_PATH.length));
	const extraPath = pathname.replace(/\/+$/, '');
	const hint = extraPath
		? ` Leave out the path ${extraPath}: the Base URL is the service's address without /v1.`
		: ' Check the Base URL.';
	return error(
		`${origin}${extraPath} answers GET ${PROBE_PATH} the same way without a key (HTTP ${reply.statusCode}), so it did not check the key: it is not the service's task address.${hint}`,
	);
}

/** The probe never reached an answer: say why in the words of the socket error. */
export function unreachableVerdict(
	probeUrl: string,
	code: string | undefined,
	message: string,
	secrets: readonly string[],
): INodeCredentialTestResult {
	const where = new URL(probeUrl).origin;
	const hints: Record<string, string> = {
		ECONNREFUSED: 'nothing accepts connections there',
		ENOTFOUND: 'the host name does not resolve',
		EAI_AGAIN: 'the host name does not resolve',
		ETIMEDOUT: 'no answer in time',
		ECONNABORTED: 'no answer in time',
		ECONNRESET: 'the connection was dropped',
		EPROTO: 'the address does not speak TLS (use http://?)',
		ERR_SSL_WRONG_VERSION_NUMBER: 'the address does not speak TLS (use http://?)',
	};
	const why = (code && hints[code]) ?? redactSecrets(message, secrets);
	return error(`Could not reach ${where}${code ? ` (${code})` : ''}: ${why}. Check the Base URL.`);
}

function error(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}
