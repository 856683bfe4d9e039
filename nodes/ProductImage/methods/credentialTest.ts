import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	CREDENTIAL_PROBE_TASK_ID,
	findServiceMessage,
	header,
	htmlHeadline,
	isHttpUrl,
	looksLikeHtml,
	normalizeBaseUrl,
	parseJsonObject,
	redactSecrets,
	taskPath,
} from '../transport';

/**
 * The service has no "who am I" endpoint, so the test asks for a task id that can never exist:
 * the cheapest read that needs the key.
 */
const PROBE_PATH = taskPath(CREDENTIAL_PROBE_TASK_ID);

/** What came back for the probe, as n8n's request helper hands it over. */
interface ProbeReply {
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
	const fromHeader = header(headers, 'x-request-id');
	return fromHeader?.startsWith('req_') ? fromHeader : undefined;
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
			`'Base URL' redirects (HTTP ${statusCode}) to "${location.slice(0, 200)}", which is not a URL. Check 'Base URL'.`,
		);
	}
	if (target.pathname.endsWith(PROBE_PATH)) {
		const baseUrl = `${target.origin}${target.pathname.slice(0, -PROBE_PATH.length)}`;
		return error(
			`'Base URL' redirects (HTTP ${statusCode}): enter the URL it redirects to, ${baseUrl}, as 'Base URL'. The node sends the key to the host of 'Base URL' only and does not follow redirects.`,
		);
	}
	return error(
		`'Base URL' redirects (HTTP ${statusCode}) to ${target.href}, which is not the service's task URL (a sign-in page?). Check 'Base URL'.`,
	);
}

/**
 * Only the service's own answer to a valid key passes: its JSON envelope (with `request_id`)
 * saying the task is unknown (404) or, should it validate the id first, that the id is
 * malformed (400, 422). Anything else names what answered instead.
 */
function probeVerdict(
	reply: ProbeReply,
	probeUrl: string,
	secrets: readonly string[],
): INodeCredentialTestResult {
	const json = parseJsonObject(reply.body);
	const requestId = serviceRequestId(json, reply.headers);
	const { statusCode } = reply;
	const where = new URL(probeUrl).origin;
	const serviceWords = (fallback: string) =>
		redactSecrets(findServiceMessage(json) ?? fallback, secrets);

	if (statusCode >= 300 && statusCode < 400) {
		const location = header(reply.headers, 'location');
		if (!location)
			return error(
				`${where} answered HTTP ${statusCode} (a redirect) without saying where to. Check 'Base URL'.`,
			);
		return redirectVerdict(statusCode, location, probeUrl);
	}
	if (requestId) {
		const tag = ` [request ${requestId}]`;
		if (statusCode === 401)
			return error(
				`The service rejected the API key (HTTP 401: ${serviceWords('unauthorized')}). Copy the key again from your account.${tag}`,
			);
		if (statusCode === 403)
			return error(
				`The service refused the API key (HTTP 403: ${serviceWords('forbidden')}). It needs a full member-level key.${tag}`,
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
			`The service answered HTTP ${statusCode}: ${serviceWords('no message')}. Try again later.${tag}`,
		);
	}
	return error(
		`${where} is not the Product Image service: GET ${PROBE_PATH} answered ${redactSecrets(describeFound(reply, json), secrets)}. Check 'Base URL'.`,
	);
}

/**
 * The service refuses a probe without a key. An address that answers it like the keyed one
 * never looked at the key, so the keyed answer proves nothing: undefined when all is well.
 */
function keylessVerdict(
	reply: ProbeReply,
	probeUrl: string,
): INodeCredentialTestResult | undefined {
	if (reply.statusCode === 401 || reply.statusCode === 403) return undefined;
	const { origin, pathname } = new URL(probeUrl.slice(0, -PROBE_PATH.length));
	const extraPath = pathname.replace(/\/+$/, '');
	const hint = extraPath
		? ` Leave out the path ${extraPath}: 'Base URL' is the service's URL without /v1.`
		: " Check 'Base URL'.";
	return error(
		`${origin}${extraPath} answers GET ${PROBE_PATH} the same way without a key (HTTP ${reply.statusCode}), so it did not check the key: it is not the service's task URL.${hint}`,
	);
}

/** The probe never reached an answer: say why in the words of the socket error. */
function unreachableVerdict(
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
		EPROTO: 'the URL does not speak TLS (use http://?)',
		ERR_SSL_WRONG_VERSION_NUMBER: 'the URL does not speak TLS (use http://?)',
	};
	const why = (code && hints[code]) ?? redactSecrets(message, secrets);
	return error(`Could not reach ${where}${code ? ` (${code})` : ''}: ${why}. Check 'Base URL'.`);
}

function error(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

const PROBE_TIMEOUT_MS = 20_000;

/** The socket error's code (ECONNREFUSED, ENOTFOUND…), which n8n's request stack may wrap in `cause`. */
function errorCode(error: unknown): string | undefined {
	for (
		let current = error, depth = 0;
		current && typeof current === 'object' && depth < 4;
		depth++
	) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string') return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

type Send = (authorization: string | undefined) => Promise<ProbeReply>;

/**
 * A credential test gets only `helpers.request` from n8n (1.x and 2.x alike): it goes through
 * n8n's outbound HTTP stack (proxy settings, SSRF policy), which a bare fetch would bypass. The
 * community lint flags `this.helpers.request` as deprecated in favour of `httpRequest`, which
 * this context does not have (n8n-io/n8n#25190).
 */
function sender(context: ICredentialTestFunctions, probeUrl: string): Send {
	const { helpers } = context;
	return async (authorization) => {
		const reply = (await helpers.request({
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
	};
}

/**
 * A declarative credential test can only compare a status or a body field with fixed values, so
 * it cannot tell the service's envelope from another server's page, nor name where a redirect
 * leads. This test reads the reply itself. Redirects are not followed: the key goes to the Base
 * URL's origin only, as in every request of the node.
 */
export async function productImageApiConnection(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const baseUrl = normalizeBaseUrl(data.baseUrl);
	const apiKey = String(data.apiKey ?? '');
	if (!isHttpUrl(baseUrl)) {
		return {
			status: 'Error',
			message: `'Base URL' reads "${baseUrl}", which is not an http(s) URL such as https://api.example.com`,
		};
	}
	const probeUrl = `${baseUrl}${PROBE_PATH}`;
	const send = sender(this, probeUrl);
	try {
		const verdict = probeVerdict(await send(`Bearer ${apiKey}`), probeUrl, [apiKey]);
		if (verdict.status !== 'OK') return verdict;
		// The same question without a key tells a route that checks the key from one that answers
		// everybody alike (a Base URL with an extra path such as /v1 reaches no route at all).
		return keylessVerdict(await send(undefined), probeUrl) ?? verdict;
	} catch (error) {
		return unreachableVerdict(
			probeUrl,
			errorCode(error),
			(error as Error).message ?? String(error),
			[apiKey],
		);
	}
}
