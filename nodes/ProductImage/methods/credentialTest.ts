import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { SERVICE_NAME } from '../serviceFacts';
import {
	BASE_URL,
	CHECK_BASE_URL,
	describeRefusal,
	FULL_KEY_NEEDED,
	KEY_NOT_ALLOWED,
	KEY_REJECTED,
	networkCodeNote,
	unreachableReason,
} from '../transport/guidance';
import { normalizeBaseUrl, taskPath } from '../transport/request';
import {
	asRecord,
	findNetworkCode,
	findRefusal,
	findServiceMessage,
	isTlsCode,
	redactSecrets,
} from '../transport/errors';
import { header, htmlHeadline, isHttpUrl, looksLikeHtml, parseJson } from '../transport/send';

/** No "who am I" endpoint: a task id that cannot exist is the cheapest read that needs the key. */
const PROBE_PATH = taskPath('task_credential_check');

interface ProbeReply {
	statusCode: number;
	statusMessage?: string;
	headers: Record<string, unknown>;
	body: string;
}

/** `request_id` in the service's JSON envelope, `req_…` in shape. */
function serviceRequestId(
	json: Record<string, unknown> | undefined,
	headers: Record<string, unknown>,
): string | undefined {
	if (!json) return undefined;
	if (typeof json.request_id === 'string' && json.request_id) return json.request_id;
	// Error replies whose body holds only `{detail}` still carry the id in the header.
	const fromHeader = header(headers, 'x-request-id');
	return fromHeader?.startsWith('req_') ? fromHeader : undefined;
}

/** What a person would see at the address; the status last. */
function describeFound(reply: ProbeReply, json: Record<string, unknown> | undefined): string {
	const status = ` (HTTP ${reply.statusCode}${reply.statusMessage ? ` ${reply.statusMessage}` : ''})`;
	const contentType = header(reply.headers, 'content-type')?.split(';')[0].trim();
	if (looksLikeHtml(reply.body, contentType)) {
		const title = htmlHeadline(reply.body);
		return `a web page${title ? ` titled "${title}"` : ''}${status}`;
	}
	if (json)
		return `a reply that is not the service's: ${JSON.stringify(json).slice(0, 120)}${status}`;
	const text = reply.body.trim().replace(/\s+/g, ' ').slice(0, 120);
	return `${text ? `"${text}"` : 'an empty reply'}${contentType ? ` (${contentType})` : ''}${status}`;
}

/** The same request moved (http → https, new host) gives the Base URL; a sign-in page does not. */
function redirectVerdict(reply: ProbeReply, probeUrl: string): INodeCredentialTestResult {
	const location = header(reply.headers, 'location');
	const code = ` (HTTP ${reply.statusCode})`;
	if (!location)
		return error(
			`${new URL(probeUrl).origin} forwards the request without saying where to. Check ${BASE_URL}.${code}`,
		);
	if (!URL.canParse(location, probeUrl)) {
		return error(
			`${BASE_URL} forwards to "${location.slice(0, 200)}", which is not a URL. Check ${BASE_URL}.${code}`,
		);
	}
	const target = new URL(location, probeUrl);
	if (target.pathname.endsWith(PROBE_PATH)) {
		const baseUrl = `${target.origin}${target.pathname.slice(0, -PROBE_PATH.length)}`;
		return error(
			`${BASE_URL} forwards to ${baseUrl}: enter ${baseUrl} as ${BASE_URL}. The key is only sent to the URL you enter.${code}`,
		);
	}
	return error(
		`${BASE_URL} forwards to ${target.href}, which is not the service (a sign-in page?). Check ${BASE_URL}.${code}`,
	);
}

/** A valid key's answers: the task is unknown, or (should the service check first) malformed. */
const KEY_ACCEPTED = new Set([404, 400, 422]);

/** Only the service's own envelope (with `request_id`) passes; anything else names what answered. */
function probeVerdict(
	reply: ProbeReply,
	probeUrl: string,
	secrets: readonly string[],
): INodeCredentialTestResult {
	const json = asRecord(parseJson(reply.body));
	const requestId = serviceRequestId(json, reply.headers);
	const { statusCode } = reply;
	const serviceWords = (fallback: string) =>
		redactSecrets(findServiceMessage(json) ?? fallback, secrets);

	if (statusCode >= 300 && statusCode < 400) return redirectVerdict(reply, probeUrl);
	if (requestId) {
		const tag = ` (request ID ${requestId})`;
		if (statusCode === 401)
			return error(
				`${KEY_REJECTED}. Copy the key again from your account. The service said: "${serviceWords('unauthorized')}"${tag}.`,
			);
		if (statusCode === 403)
			return error(
				`${KEY_NOT_ALLOWED}: ${FULL_KEY_NEEDED}. The service said: "${serviceWords('forbidden')}"${tag}.`,
			);
		if (KEY_ACCEPTED.has(statusCode) || (statusCode >= 200 && statusCode < 300))
			return { status: 'OK', message: `Connection successful: the service accepted the key${tag}` };
		return error(
			`The service could not answer now ("${serviceWords('no message')}"). Try again later (HTTP ${statusCode}, request ID ${requestId}).`,
		);
	}
	return error(
		`${new URL(probeUrl).origin} answered with ${redactSecrets(describeFound(reply, json), secrets)}, not as the ${SERVICE_NAME} answers. ${CHECK_BASE_URL}`,
	);
}

/** An address that answers a keyless probe like the keyed one never looked at the key. */
function keylessVerdict(
	reply: ProbeReply,
	probeUrl: string,
): INodeCredentialTestResult | undefined {
	if (reply.statusCode === 401 || reply.statusCode === 403) return undefined;
	const { origin, pathname } = new URL(probeUrl.slice(0, -PROBE_PATH.length));
	const extraPath = pathname.replace(/\/+$/, '');
	const fix = extraPath ? `Remove ${extraPath} from ${BASE_URL}.` : `Check ${BASE_URL}.`;
	return error(
		`${origin}${extraPath} answers the same with or without a key, so it is not the service. ${fix} (HTTP ${reply.statusCode} without a key)`,
	);
}

/** n8n's refusal, or why nothing answered in words, then what to check; the socket code last. */
function thrownVerdict(
	thrown: unknown,
	probeUrl: string,
	secrets: readonly string[],
): INodeCredentialTestResult {
	const refusal = findRefusal(thrown, probeUrl);
	if (refusal) {
		const { message, description } = describeRefusal(refusal, 'request', 'Nothing was sent.');
		return error(`${message}. ${description}`);
	}
	const where = new URL(probeUrl).origin;
	const code = findNetworkCode(thrown);
	if (isTlsCode(code))
		return error(
			`${where} does not answer over https. If your provider's URL starts with http://, enter that as ${BASE_URL}.${networkCodeNote(code)}`,
		);
	const message = (thrown as Error).message ?? String(thrown);
	const why = code
		? unreachableReason(where, code)
		: `${where} could not be reached: ${redactSecrets(message, secrets)}.`;
	return error(
		`${why} Check ${BASE_URL} for a typo, and that this n8n can reach it.${networkCodeNote(code)}`,
	);
}

function error(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

const PROBE_TIMEOUT_MS = 20_000;

/**
 * A credential test gets only `helpers.request`, which the lint calls deprecated (n8n-io/n8n#25190):
 * it goes through n8n's outbound HTTP stack (proxy, SSRF policy), which a bare fetch would bypass.
 */
async function probe(
	context: ICredentialTestFunctions,
	probeUrl: string,
	authorization?: string,
): Promise<ProbeReply> {
	const reply = (await context.helpers.request({
		uri: probeUrl,
		method: 'GET',
		headers: {
			Accept: 'application/json',
			...(authorization ? { Authorization: authorization } : {}),
		},
		json: false,
		followRedirect: false,
		followAllRedirects: false,
		simple: false,
		resolveWithFullResponse: true,
		timeout: PROBE_TIMEOUT_MS,
	})) as ProbeReply;
	return { ...reply, body: typeof reply.body === 'string' ? reply.body : '' };
}

/** Redirects are not followed: the key goes to the Base URL's origin only. */
export async function productImageApiConnection(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	const apiKey = String(data.apiKey ?? '');
	if (!isHttpUrl(baseUrl)) {
		return error(
			`${BASE_URL} must start with https:// (or http://), such as https://api.example.com. It reads "${baseUrl}".`,
		);
	}
	const probeUrl = `${baseUrl}${PROBE_PATH}`;
	try {
		const keyed = await probe(this, probeUrl, `Bearer ${apiKey}`);
		const verdict = probeVerdict(keyed, probeUrl, [apiKey]);
		if (verdict.status !== 'OK') return verdict;
		// The same question without a key tells a route that checks the key from one that answers
		// everybody alike (a Base URL with an extra path such as /v1 reaches no route at all).
		return keylessVerdict(await probe(this, probeUrl), probeUrl) ?? verdict;
	} catch (thrown) {
		return thrownVerdict(thrown, probeUrl, [apiKey]);
	}
}
