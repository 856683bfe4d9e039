import { BASE_URL_LABEL, KEPT_FOR, SERVICE_NAME, SYNC_OPERATION_SECONDS } from '../serviceFacts';
import type { Failure, Refusal } from './errors';
import { isTimeoutCode, isTlsCode, nothingSent, submitMayHaveLanded } from './errors';
import type { RequestKind } from './retry';
import { MAX_RETRY_AFTER_MS, REQUEST_KINDS } from './retry';

// The words of a failure: the error's title and the advice in its description, chosen from one
// table; the phrases the node's errors, the credential's Test and the operations share.

/** n8n renders an error's title and description as HTML, where text in angle brackets vanishes. */
export const withoutAngleBrackets = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

/** An echoed request or a page dump would bury the advice. */
const MAX_QUOTED_LENGTH = 300;

export function shortened(text: string): string {
	const oneLine = withoutAngleBrackets(text.replace(/\s+/g, ' ')).trim();
	return oneLine.length > MAX_QUOTED_LENGTH
		? `${oneLine.slice(0, MAX_QUOTED_LENGTH - 1).trimEnd()}…`
		: oneLine;
}

export const BASE_URL = `'${BASE_URL_LABEL}'`;
export const CHECK_BASE_URL = `Check ${BASE_URL}: the URL your provider gave you, without /v1.`;
export const KEY_REJECTED = 'The service rejected the API key';
export const KEY_NOT_ALLOWED = 'The API key is not allowed to do this';
export const FULL_KEY_NEEDED = 'the service needs a full member-level key';

const NETWORK_WORDS: Record<string, string> = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ENOTFOUND: 'host name not found',
	EAI_AGAIN: 'host name lookup failed',
};

/** Last in a description: what happened in a few words, then the code an administrator looks up. */
export function networkCodeNote(code?: string): string {
	if (!code) return '';
	const words = isTimeoutCode(code)
		? 'timed out'
		: isTlsCode(code)
			? 'secure connection failed'
			: (NETWORK_WORDS[code] ?? 'network error');
	return ` (${words}: ${code})`;
}

/** Why nothing answered, in words; the code itself is not said. */
export function unreachableReason(where: string, code: string | undefined): string {
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `The name ${where} was not found: check it for a typo, and that the server n8n runs on can look names up (DNS).`;
	if (code === 'ECONNREFUSED')
		return `Nothing answers at ${where}: nothing listens there, or a firewall turned the connection away.`;
	if (isTimeoutCode(code)) return `${where} did not answer in time.`;
	if (code === 'ECONNRESET') return `${where} dropped the connection.`;
	return `${where} could not be reached.`;
}

export const WAIT_FOR_COMPLETION = "'Task → Wait for Completion'";

export const resumeTask = (taskId: string) =>
	`resume with ${WAIT_FOR_COMPLETION} and task ID ${taskId}`;

/** What was paid for is collected, never generated again. */
export function resumeAdvice(taskIds: string): string {
	return `Collect the images with ${WAIT_FOR_COMPLETION} and ${taskIds} instead of generating again, which would bill again.`;
}

/** For n8n's administrator: the guard, the host, the setting that allows it; `nothing` not sent. */
export function describeRefusal(refusal: Refusal, noun: string, nothing: string) {
	const { host, ip = host } = refusal;
	if (refusal.by === 'n8n')
		return {
			message: `n8n refused the ${noun}`,
			description: `n8n refused to send it: "${shortened(refusal.message)}". ${nothing} This is a setting of this n8n, not of the service: ask its administrator.`,
		};
	const range = `${ip}/${ip.includes(':') ? 128 : 32}`;
	const inRange = 'in an IP range this n8n blocks (N8N_SSRF_BLOCKED_IP_RANGES)';
	const [blocked, allow] =
		refusal.by === 'hostname'
			? [
					`${host} is on this n8n's list of blocked hostnames (N8N_SSRF_BLOCKED_HOSTNAMES)`,
					`adding ${host} to N8N_SSRF_ALLOWED_HOSTNAMES`,
				]
			: ip === host
				? [`${host} is ${inRange}`, `adding ${range} to N8N_SSRF_ALLOWED_IP_RANGES`]
				: [
						`${host} resolves to ${ip}, ${inRange}`,
						`adding ${host} to N8N_SSRF_ALLOWED_HOSTNAMES (or ${range} to N8N_SSRF_ALLOWED_IP_RANGES)`,
					];
	return {
		message: `n8n's SSRF protection blocked ${host}`,
		description: `n8n did not connect: ${blocked}. ${nothing} An n8n administrator can allow it by ${allow} and restarting n8n.`,
	};
}

/** "10 minutes (until about 14:05 UTC)": when a long Retry-After ends, for a person to act on. */
function waitInWords(retryAfterMs: number, now = Date.now()): string {
	const minutes = Math.ceil(retryAfterMs / 60_000);
	const until = new Date(now + retryAfterMs).toISOString().slice(11, 16);
	return `${minutes} minute${minutes === 1 ? '' : 's'} (until about ${until} UTC)`;
}

/** A submit that may have made a task: nothing is lost yet, but a second run bills twice. */
function submitUnsureAdvice(
	requestId: string | undefined,
	sentRequestId?: string,
	timeoutLabel?: string,
): string {
	const quote = requestId
		? `give the service's provider the request ID ${requestId}, and it can tell whether the task exists`
		: sentRequestId
			? `the service gave no request ID; give its provider the request ID this node sent, ${sentRequestId}, and the time of this run`
			: 'the service gave no request ID: tell its provider the time of this run';
	const timeout = timeoutLabel
		? ` If the service is slow to accept, raise '${timeoutLabel}' in the options.`
		: '';
	return `The service may have created the task and may bill for it. Do not run this item again blindly: ${quote}.${timeout}`;
}

/** The labels of the panel fields the advice names; the transport knows none of its own. */
export interface Wording {
	timeout?: string;
	concurrency?: string;
	/** By the names the service uses (`size`, `product_info.name`). */
	fields?: Record<string, string>;
	otherFields?: string;
}

interface Case {
	failure: Failure;
	kind: RequestKind;
	noun: string;
	/** " It was tried 3 times." after retries, else empty. */
	retried: string;
	host?: string;
	status: number;
	sentRequestId?: string;
	wording: Wording;
}

type Words = string | ((c: Case) => string);
/** A cause, then the error's title (none: the next row's that applies) and the advice. */
type Row = [when: (c: Case) => boolean, title: Words | undefined, advice: Words];

const NOT_THE_SERVICE =
	"It is not the service's host, so the Product Image credential is not the cause.";
const PROXY_ANSWERED = 'A proxy or load balancer answered instead of the service';

const billable = (c: Case) => c.kind === 'analysis' || c.kind === 'plan';
const foreign = (c: Case) => c.host !== undefined;
const is = (kind: Failure['kind']) => (c: Case) => c.failure.kind === kind;
const network = is('network');
const timedOut = is('timeout');
const tls = (c: Case) => network(c) && isTlsCode(c.failure.networkCode);
const html = (c: Case) => c.failure.html === true;
const http = (c: Case, ...statuses: number[]) =>
	c.failure.kind === 'http' && (statuses.length === 0 || statuses.includes(c.status));
const gone = (c: Case) => c.status === 404 || c.status === 410;
/** A web page, or a reply the service did not process: a proxy's word, not the service's. */
const fromGateway = (c: Case) => html(c) || !c.failure.processed;

function slowDown(c: Case): string {
	return c.wording.concurrency
		? `Lower '${c.wording.concurrency}' or add a Wait node before this one.`
		: 'Add a Wait node before this one, or use Loop Over Items with a pause.';
}

/** The field the service's words name, as the panel labels it. */
function refusedField(c: Case): string {
	const said = c.failure.serviceMessage ?? '';
	const field = Object.keys(c.wording.fields ?? {}).find((name) =>
		new RegExp(`(^|[^\\w.])${name.replace(/\./g, '\\.')}($|[^\\w])`).test(said),
	);
	return field
		? `The service refused '${c.wording.fields?.[field]}'. Change it and run the item again; nothing was billed.`
		: `The service refused a value this node sent; its words above say which. Check the fields set on this node${c.wording.otherFields ? `, and '${c.wording.otherFields}' if used` : ''}.`;
}

/** A 5xx with the service's envelope came from the service; else from a proxy in front of it. */
function serverWho(c: Case): string {
	return c.failure.processed
		? 'The service could not complete the request'
		: 'A proxy or load balancer answered in place of the service';
}

/** A refusal by n8n before connecting: nothing reached the service, so nothing was billed. */
function refusal(c: Case): { message: string; description: string } {
	const nothing =
		c.kind === 'submit' || billable(c)
			? 'Nothing was sent to the service, so nothing was billed.'
			: `Nothing was sent.${foreign(c) ? ` ${NOT_THE_SERVICE}` : ''}`;
	return describeRefusal(c.failure.refusal!, c.noun, nothing);
}

/** A submit that may have made a task gets this advice in place of its row's. */
const submitUnsure = (c: Case) =>
	`${html(c) ? 'A web page (a proxy or load balancer) answered instead of the service. ' : ''}${submitUnsureAdvice(c.failure.requestId, c.sentRequestId, timedOut(c) ? c.wording.timeout : undefined)}`;

/**
 * Cause → title and advice: the first row that applies gives the advice, and the title unless it
 * has none. A download from another host never blames the credential; a submit the service may
 * have taken gets `submitUnsure` as its advice.
 */
const TABLE: Row[] = [
	[is('refused'), (c) => refusal(c).message, (c) => refusal(c).description],
	[
		(c) => foreign(c) && timedOut(c),
		(c) => `${c.host} did not answer in time`,
		(c) =>
			`${c.host} did not answer in time.${c.retried} ${NOT_THE_SERVICE} Try again later, or check that this n8n can reach ${c.host}.`,
	],
	[
		(c) => foreign(c) && nothingSent(c.failure),
		(c) => `Could not reach ${c.host}`,
		(c) =>
			`Nothing was sent. ${unreachableReason(c.host ?? '', c.failure.networkCode)}${c.retried} ${NOT_THE_SERVICE}`,
	],
	[
		(c) => foreign(c) && tls(c),
		(c) => `Could not open a secure (https) connection to ${c.host}`,
		(c) =>
			`${c.host} did not open a secure connection: its certificate is not one this n8n trusts, or the URL says https:// where the host serves http://.${c.retried} ${NOT_THE_SERVICE}`,
	],
	[
		(c) => foreign(c) && network(c),
		(c) => `The connection to ${c.host} broke`,
		(c) =>
			`The connection to ${c.host} broke before the image was complete.${c.retried} ${NOT_THE_SERVICE} Try again later.`,
	],
	[
		(c) => foreign(c) && is('redirect')(c),
		(c) => `${c.host} kept redirecting the ${c.noun}`,
		(c) =>
			`${c.host} kept redirecting the download (HTTP ${c.status || '?'}), more often than this node follows or to a URL that is not http(s). Open the URL in a browser to see where it leads.`,
	],
	[
		(c) => foreign(c) && http(c, 401, 403),
		(c) => `${c.host} refused the ${c.noun}`,
		(c) =>
			`${c.host} refused the download (HTTP ${c.status}). The API key goes to the service's host only, so the URL has to work on its own: a signed URL may have expired or been changed. Open it in a browser to check.`,
	],
	[
		(c) => foreign(c) && http(c, 429),
		(c) => `${c.host} asked to slow down`,
		(c) => `${c.host} is limiting requests.${c.retried} ${slowDown(c)}`,
	],
	[
		(c) => foreign(c) && http(c) && c.status >= 500,
		(c) => `${c.host} could not serve the image`,
		(c) => `${c.host} answered HTTP ${c.status}.${c.retried} ${NOT_THE_SERVICE} Try again later.`,
	],
	[
		(c) => foreign(c) && http(c) && !gone(c),
		(c) => `${c.host} did not serve the image`,
		(c) =>
			`${c.host} answered HTTP ${c.status} instead of the image. Open the URL in a browser to see what it serves.`,
	],
	[
		(c) => timedOut(c) && billable(c),
		(c) => `The service did not answer the ${c.noun} in time`,
		(c) =>
			`The service did not answer in time. It may still have done the work, so this was not sent again. Raise '${c.wording.timeout ?? 'Timeout'}' in the options (the service recommends at least ${SYNC_OPERATION_SECONDS} seconds) or try again later.`,
	],
	[
		timedOut,
		(c) => `The service did not answer the ${c.noun} in time`,
		(c) => `The service did not answer in time.${c.retried} Try again later.`,
	],
	[
		(c) => nothingSent(c.failure),
		'Could not reach the service',
		(c) =>
			`Nothing was sent: the service could not be reached.${c.retried} Check ${BASE_URL} in the Product Image API credential.`,
	],
	[
		tls,
		'Could not open a secure (https) connection to the host of the service',
		(c) =>
			`The host of ${BASE_URL} answered, but not over a secure connection this n8n trusts. If the URL your provider gave starts with http://, enter that in the Product Image API credential.${c.retried}`,
	],
	[
		network,
		'The connection to the service broke',
		(c) => `The connection broke before the reply was complete.${c.retried} Try again later.`,
	],
	[
		is('notImage'),
		(c) =>
			html(c)
				? 'The URL returned a web page, not an image'
				: 'The URL returned something other than an image',
		'The URL answered with a page or a message (a sign-in portal, a notice from a content delivery network) instead of image bytes. Open the URL in a browser to see what it serves, and check the URL and its access rights.',
	],
	[
		(c) => is('malformed')(c) && html(c),
		'A web page answered instead of the service',
		(c) =>
			`A web page answered, not the ${SERVICE_NAME}${billable(c) || c.kind === 'submit' ? ': the service did not get this request, so nothing was billed' : ''}. ${CHECK_BASE_URL}`,
	],
	[
		is('malformed'),
		"The service's reply could not be read",
		`The reply was not what the service sends. Check that ${BASE_URL} points at the service itself, not at a web page or proxy.`,
	],
	[
		is('redirect'),
		(c) => `The service redirected the ${c.noun}`,
		`The service redirected an API call. Check ${BASE_URL} (http vs https, missing path).`,
	],
	[
		is('tooLarge'),
		"The service's reply was too large",
		`The reply was larger than any the service sends. Check ${BASE_URL}.`,
	],
	[
		(c) => c.status >= 500 && billable(c),
		undefined,
		(c) =>
			`${serverWho(c)}; the request may have reached the service, so it was not sent again. Try again later.`,
	],
	[
		html,
		undefined,
		`A web page answered instead of the service (a proxy, a load balancer or a wrong ${BASE_URL}). Check ${BASE_URL}, or try again later if the service is down.`,
	],
	// The service's HTTP answers.
	[
		(c) => gone(c) && c.kind === 'download',
		'The image URL no longer exists',
		`The URL has expired or never existed: uploaded and result images are kept at most ${KEPT_FOR}. Generate the image again.`,
	],
	[(c) => http(c, 400, 422), (c) => `The service refused the ${c.noun}`, refusedField],
	[(c) => http(c, 401), KEY_REJECTED, 'Check the API key in the Product Image API credential.'],
	[(c) => http(c, 403), KEY_NOT_ALLOWED, `The API key lacks permission: ${FULL_KEY_NEEDED}.`],
	[
		(c) => c.status === 404 && c.kind === 'taskQuery',
		(c) => (fromGateway(c) ? PROXY_ANSWERED : 'The service does not know this task'),
		`The service does not know this task ID. Check it; tasks and their results are kept at most ${KEPT_FOR}.`,
	],
	// The service's endpoints are fixed paths: a 404 on one means the request never reached them,
	// most often because 'Base URL' carries a path of its own (such as /v1) in front.
	[
		(c) => http(c, 404),
		`Nothing at ${BASE_URL} answers this request`,
		`${BASE_URL} is the service's URL without /v1 (the node adds /v1/open/…); correct it in the Product Image API credential and save it, which tests the connection again.`,
	],
	[
		(c) => http(c, 413),
		'The image is too large for the service',
		'The image is too large for the service. Send a smaller file.',
	],
	[
		(c) => http(c, 415),
		'The service does not take this image type',
		'The service does not accept this file type. Send a JPEG, PNG or WebP image.',
	],
	[
		(c) => http(c, 429),
		'The service asked to slow down',
		(c) =>
			(c.failure.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS
				? `The service is rate-limiting requests and asked to wait ${waitInWords(c.failure.retryAfterMs ?? 0)}, longer than this node waits inside a run. Run it again after that${c.wording.concurrency ? `, or lower '${c.wording.concurrency}'` : ''}.`
				: `The service is rate-limiting requests.${c.retried} ${slowDown(c)}`,
	],
	[
		(c) => c.status >= 500,
		(c) => (fromGateway(c) ? PROXY_ANSWERED : `The service could not complete the ${c.noun}`),
		(c) => `${serverWho(c)}.${c.retried} Try again later.`,
	],
	[
		() => true,
		(c) => `The service refused the ${c.noun}`,
		'The service refused the request; its words above say why. Change the field it names, or give its provider the request ID.',
	],
];

const say = (words: Words, c: Case) => (typeof words === 'string' ? words : words(c));

/** An address without its query, which may hold a signature. */
function shownAddress(url: string | undefined): string {
	return url ? url.split(/[?#]/)[0] : 'the URL';
}

function replyFacts(failure: Failure, advice: string): string {
	const { serviceMessage, requestId } = failure;
	const code =
		failure.code !== undefined && failure.code !== failure.status
			? shortened(String(failure.code))
			: undefined;
	const said =
		failure.kind === 'redirect'
			? serviceMessage && `It pointed to ${shortened(serviceMessage)}.`
			: serviceMessage &&
				`The reply said: "${shortened(serviceMessage)}"${code ? ` (code ${code})` : ''}.`;
	return [
		failure.kind === 'notImage' &&
			`${shownAddress(failure.url)} answered HTTP ${failure.status} with ${failure.contentType || 'no content type'}.`,
		said || (code && `The reply's code: ${code}.`),
		// Submit advice quotes the request id itself, with what to do with it.
		requestId && !advice.includes(requestId) && `Request ID: ${shortened(requestId)}.`,
	]
		.filter(Boolean)
		.join(' ');
}

/** The description quotes the reply (`facts`, also given alone), then says what to do next. */
export function describeFailure(
	failure: Failure,
	kind: RequestKind,
	attempts: number,
	sentRequestId?: string,
	wording: Wording = {},
): { message: string; description: string; facts: string } {
	const c: Case = {
		failure,
		kind,
		noun: REQUEST_KINDS[kind].noun,
		retried: attempts > 1 ? ` It was tried ${attempts} times.` : '',
		host: failure.foreignHost,
		status: failure.status ?? 0,
		sentRequestId,
		wording,
	};
	const applies = TABLE.filter(([when]) => when(c));
	const landed = kind === 'submit' && submitMayHaveLanded(failure);
	const advice = say(landed ? submitUnsure : applies[0][2], c).trim();
	const title = applies.find(([, rowTitle]) => rowTitle !== undefined)![1]!;
	const facts = replyFacts(failure, advice);
	const note = network(c) || timedOut(c) ? networkCodeNote(failure.networkCode) : '';
	return {
		message: say(title, c),
		description: `${facts ? `${facts} ${advice}` : advice}${note}`,
		facts,
	};
}

/** After a reply from the service that lacks what this node needs. */
export function shapeAdvice(kind: RequestKind, requestId: string | undefined): string {
	if (kind === 'submit') return `The reply holds no task ID. ${submitUnsureAdvice(requestId)}`;
	return `The reply came from the service but lacks fields this node needs. Check that ${BASE_URL} points at the ${SERVICE_NAME} (version 1).`;
}
