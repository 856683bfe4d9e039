import { ProductImageApi, SERVICE_NAME } from '../../../credentials/ProductImageApi.credentials';
import type { Failure, Refusal } from './errors';
import { isTimeoutCode, isTlsCode, nothingSent, submitMayHaveLanded } from './errors';
import type { RequestKind } from './requestKinds';
import { MAX_RETRY_AFTER_MS, REQUEST_KINDS } from './requestKinds';
import { KEPT_FOR, SYNC_OPERATION_SECONDS } from '../serviceFacts';

/** n8n renders an error's title and description as HTML, where text in angle brackets vanishes. */
export function withoutAngleBrackets(text: string): string {
	return text.replace(/</g, '‹').replace(/>/g, '›');
}

/** An echoed request or a page dump would bury the advice. */
const MAX_QUOTED_LENGTH = 300;

export function shortened(text: string): string {
	const oneLine = withoutAngleBrackets(text.replace(/\s+/g, ' ')).trim();
	return oneLine.length > MAX_QUOTED_LENGTH
		? `${oneLine.slice(0, MAX_QUOTED_LENGTH - 1).trimEnd()}…`
		: oneLine;
}

const credentialLabel = (name: string) =>
	new ProductImageApi().properties.find((property) => property.name === name)?.displayName ?? name;

export const BASE_URL = `'${credentialLabel('baseUrl')}'`;

/** Worded once for the node's errors and the credential test. */
export const CHECK_BASE_URL = `Check ${BASE_URL}: the URL your provider gave you, without /v1.`;
export const KEY_REJECTED = 'The service rejected the API key';
export const KEY_NOT_ALLOWED = 'The API key is not allowed to do this';
export const FULL_KEY_NEEDED = 'the service needs a full member-level key';

/** Last in a description: a detail for whoever reads the n8n log. */
export function networkCodeNote(code: string | undefined): string {
	return code ? ` (network code ${code})` : '';
}

/** Why nothing answered, in words; the code itself is not said. */
export function unreachableReason(where: string, code: string | undefined): string {
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `The name ${where} did not resolve: check it for a typo, and this n8n's DNS.`;
	if (code === 'ECONNREFUSED')
		return `Nothing answers at ${where}: nothing listens there, or a firewall turned the connection away.`;
	if (isTimeoutCode(code)) return `${where} did not answer in time.`;
	if (code === 'ECONNRESET') return `${where} dropped the connection.`;
	return `${where} could not be reached.`;
}

/**
 * n8n's refusal in words for its administrator: which guard, the host, the setting that allows it.
 * `nothing`: what was not sent or billed.
 */
export function describeRefusal(
	refusal: Refusal,
	noun: string,
	nothing: string,
): { message: string; description: string } {
	const { host } = refusal;
	const restart = 'and restarting n8n';
	if (refusal.by === 'n8n') {
		return {
			message: `n8n refused the ${noun}`,
			description: `n8n refused to send it: "${shortened(refusal.message)}". ${nothing} This is a setting of this n8n, not of the service: ask its administrator.`,
		};
	}
	const message = `n8n's SSRF protection blocked ${host}`;
	if (refusal.by === 'hostname') {
		return {
			message,
			description: `n8n did not connect: ${host} is on this n8n's list of blocked hostnames (N8N_SSRF_BLOCKED_HOSTNAMES). ${nothing} An n8n administrator can allow it by adding ${host} to N8N_SSRF_ALLOWED_HOSTNAMES ${restart}.`,
		};
	}
	const ip = refusal.ip ?? host;
	const range = `${ip}/${ip.includes(':') ? 128 : 32}`;
	const named = ip !== host;
	const where = named ? `${host} resolves to ${ip},` : `${host} is`;
	const allow = named
		? `adding ${host} to N8N_SSRF_ALLOWED_HOSTNAMES (or ${range} to N8N_SSRF_ALLOWED_IP_RANGES)`
		: `adding ${range} to N8N_SSRF_ALLOWED_IP_RANGES`;
	return {
		message,
		description: `n8n did not connect: ${where} in an IP range this n8n blocks (N8N_SSRF_BLOCKED_IP_RANGES). ${nothing} An n8n administrator can allow it by ${allow} ${restart}.`,
	};
}

/** "10 minutes (until about 14:05 UTC)": when a long Retry-After ends, for a person to act on. */
function waitInWords(retryAfterMs: number, now = Date.now()): string {
	const minutes = Math.ceil(retryAfterMs / 60_000);
	const until = new Date(now + retryAfterMs).toISOString().slice(11, 16);
	return `${minutes} minute${minutes === 1 ? '' : 's'} (until about ${until} UTC)`;
}

function requestToQuote(requestId: string | undefined, sentRequestId: string | undefined): string {
	if (requestId)
		return `give the service's provider the request ID ${requestId}, and it can tell whether the task exists`;
	if (sentRequestId)
		return `the service gave no request ID; give its provider the request ID this node sent, ${sentRequestId}, and the time of this run`;
	return 'the service gave no request ID: tell its provider the time of this run';
}

/** A submit that may have made a task: nothing is lost yet, but a second run bills twice. */
function submitUnsureAdvice(
	requestId: string | undefined,
	sentRequestId?: string,
	timeoutLabel?: string,
): string {
	const timeout = timeoutLabel
		? ` If the service is slow to accept, raise '${timeoutLabel}' in the options.`
		: '';
	return `The service may have created the task and may bill for it. Do not run this item again blindly: ${requestToQuote(requestId, sentRequestId)}.${timeout}`;
}

export const WAIT_FOR_COMPLETION = "'Task → Wait for Completion'";

export function resumeTask(taskId: string): string {
	return `resume with ${WAIT_FOR_COMPLETION} and task ID ${taskId}`;
}

/** What was paid for is collected, never generated again. */
export function resumeAdvice(taskIds: string): string {
	return `Collect the images with ${WAIT_FOR_COMPLETION} and ${taskIds} instead of generating again, which would bill again.`;
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
	/** " It was tried 3 times." after retries, else empty. */
	retried: string;
	host?: string;
	status: number;
	sentRequestId?: string;
	wording: Wording;
}

const NOT_THE_SERVICE =
	"It is not the service's host, so the Product Image credential is not the cause.";

const billable = (c: Case) => c.kind === 'analysis' || c.kind === 'plan';
const foreign = (c: Case) => c.host !== undefined;
const network = (c: Case) => c.failure.kind === 'network';
const tls = (c: Case) => network(c) && isTlsCode(c.failure.networkCode);
const http = (c: Case, ...statuses: number[]) =>
	c.failure.kind === 'http' && (statuses.length === 0 || statuses.includes(c.status));

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

/** A 5xx with the service's envelope came from the service; else from a gateway in front of it. */
function serverWho(c: Case): string {
	return c.failure.processed
		? 'The service could not complete the request'
		: 'A gateway answered in place of the service';
}

/** A refusal by n8n before connecting: nothing reached the service, so nothing was billed. */
function refusedAdvice(c: Case): string {
	const nothing =
		c.kind === 'submit' || billable(c)
			? 'Nothing was sent to the service, so nothing was billed.'
			: `Nothing was sent.${foreign(c) ? ` ${NOT_THE_SERVICE}` : ''}`;
	return describeRefusal(c.failure.refusal!, REQUEST_KINDS[c.kind].noun, nothing).description;
}

/** The first row that applies; a download from another host never blames the credential. */
const ADVICE: Array<[(c: Case) => boolean, (c: Case) => string]> = [
	[(c) => c.failure.kind === 'refused', refusedAdvice],
	[
		(c) => foreign(c) && c.failure.kind === 'timeout',
		(c) =>
			`${c.host} did not answer in time.${c.retried} ${NOT_THE_SERVICE} Try again later, or check that this n8n can reach ${c.host}.`,
	],
	[
		(c) => foreign(c) && nothingSent(c.failure),
		(c) =>
			`Nothing was sent. ${unreachableReason(c.host ?? '', c.failure.networkCode)}${c.retried} ${NOT_THE_SERVICE}`,
	],
	[
		(c) => foreign(c) && tls(c),
		(c) =>
			`${c.host} did not open a secure connection: its certificate is not one this n8n trusts, or the URL says https:// where the host serves http://.${c.retried} ${NOT_THE_SERVICE}`,
	],
	[
		(c) => foreign(c) && network(c),
		(c) =>
			`The connection to ${c.host} broke before the image was complete.${c.retried} ${NOT_THE_SERVICE} Try again later.`,
	],
	[
		(c) => foreign(c) && c.failure.kind === 'redirect',
		(c) =>
			`${c.host} kept redirecting the download (HTTP ${c.status || '?'}), more often than this node follows or to a URL that is not http(s). Open the URL in a browser to see where it leads.`,
	],
	[
		(c) => foreign(c) && http(c, 401, 403),
		(c) =>
			`${c.host} refused the download (HTTP ${c.status}). The API key goes to the service's host only, so the URL has to work on its own: a signed URL may have expired or been changed. Open it in a browser to check.`,
	],
	[
		(c) => foreign(c) && http(c, 429),
		(c) => `${c.host} is limiting requests.${c.retried} ${slowDown(c)}`,
	],
	[
		(c) => foreign(c) && http(c) && c.status >= 500,
		(c) => `${c.host} answered HTTP ${c.status}.${c.retried} ${NOT_THE_SERVICE} Try again later.`,
	],
	[
		(c) => foreign(c) && http(c) && c.status !== 404 && c.status !== 410,
		(c) =>
			`${c.host} answered HTTP ${c.status} instead of the image. Open the URL in a browser to see what it serves.`,
	],
	[
		(c) => c.kind === 'submit' && submitMayHaveLanded(c.failure),
		(c) =>
			`${c.failure.html ? 'A web page (a proxy or load balancer) answered instead of the service. ' : ''}${submitUnsureAdvice(c.failure.requestId, c.sentRequestId, c.failure.kind === 'timeout' ? c.wording.timeout : undefined)}`,
	],
	[
		(c) => c.failure.kind === 'timeout' && billable(c),
		(c) =>
			`The service did not answer in time. It may still have done the work, so this was not sent again. Raise '${c.wording.timeout ?? 'Timeout'}' in the options (the service recommends at least ${SYNC_OPERATION_SECONDS} seconds) or try again later.`,
	],
	[
		(c) => c.failure.kind === 'timeout',
		(c) => `The service did not answer in time.${c.retried} Try again later.`,
	],
	[
		(c) => nothingSent(c.failure),
		(c) =>
			`Nothing was sent: the service could not be reached.${c.retried} Check ${BASE_URL} in the Product Image API credential.`,
	],
	[
		(c) => tls(c),
		(c) =>
			`The host of ${BASE_URL} answered, but not over a secure connection this n8n trusts. If the URL your provider gave starts with http://, enter that in the Product Image API credential.${c.retried}`,
	],
	[
		(c) => network(c),
		(c) => `The connection broke before the reply was complete.${c.retried} Try again later.`,
	],
	[
		(c) => c.failure.kind === 'notImage',
		() =>
			'The URL answered with a page or a message (a sign-in portal, a notice from a CDN) instead of image bytes. Open the URL in a browser to see what it serves, and check the URL and its access rights.',
	],
	[
		(c) => c.failure.kind === 'malformed' && c.failure.html === true,
		(c) =>
			`A web page answered, not the ${SERVICE_NAME}${billable(c) || c.kind === 'submit' ? ': the service did not get this request, so nothing was billed' : ''}. ${CHECK_BASE_URL}`,
	],
	[
		(c) => c.failure.kind === 'malformed',
		() =>
			`The reply was not what the service sends. Check that ${BASE_URL} points at the service itself, not at a web page or proxy.`,
	],
	[
		(c) => c.failure.kind === 'redirect',
		() => `The service redirected an API call. Check ${BASE_URL} (http vs https, missing path).`,
	],
	[
		(c) => c.failure.kind === 'tooLarge',
		() => `The reply was larger than this node accepts for JSON. Check ${BASE_URL}.`,
	],
	[
		(c) => c.status >= 500 && billable(c),
		(c) =>
			`${serverWho(c)}; the request may have reached the service, so it was not sent again. Try again later.`,
	],
	[
		(c) => c.failure.html === true,
		() =>
			`A web page answered instead of the service (a proxy, a load balancer or a wrong ${BASE_URL}). Check ${BASE_URL}, or try again later if the service is down.`,
	],
	[() => true, (c) => SERVICE_ADVICE[c.status]?.(c) ?? serviceAdvice(c)],
];

const SERVICE_ADVICE: Record<number, (c: Case) => string | undefined> = {
	400: refusedField,
	401: () => 'Check the API key in the Product Image API credential.',
	403: () => `The API key lacks permission: ${FULL_KEY_NEEDED}.`,
	404: (c) => {
		if (c.kind === 'taskQuery')
			return `The service does not know this task ID. Check it; tasks and their results are kept at most ${KEPT_FOR}.`;
		if (c.kind === 'download')
			return `The URL has expired or never existed: uploaded and result images are kept at most ${KEPT_FOR}. Generate the image again.`;
		// The service's endpoints are fixed paths: a 404 on one means the request never reached
		// them, most often because 'Base URL' carries a path of its own (such as /v1) in front.
		return `${BASE_URL} is the service's URL without /v1 (the node adds /v1/open/…); correct it in the Product Image API credential and save it, which tests the connection again.`;
	},
	410: (c) => (c.kind === 'download' ? SERVICE_ADVICE[404](c) : undefined),
	413: () => 'The image is too large for the service. Send a smaller file.',
	415: () => 'The service does not accept this file type. Send a JPEG, PNG or WebP image.',
	422: refusedField,
	429: (c) =>
		(c.failure.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS
			? `The service is rate-limiting requests and asked to wait ${waitInWords(c.failure.retryAfterMs ?? 0)}, longer than this node waits inside a run. Run it again after that${c.wording.concurrency ? `, or lower '${c.wording.concurrency}'` : ''}.`
			: `The service is rate-limiting requests.${c.retried} ${slowDown(c)}`,
};

function serviceAdvice(c: Case): string {
	if (c.status >= 500) return `${serverWho(c)}.${c.retried} Try again later.`;
	return 'The service refused the request; its words above say why. Change the field it names, or give its provider the request ID.';
}

/** The title, in the node's own words; the service's words, codes and ids go to the description. */
function whatHappened(c: Case): string {
	const { failure } = c;
	const noun = REQUEST_KINDS[c.kind].noun;
	const who = c.host ?? 'the service';
	switch (failure.kind) {
		case 'timeout':
			return c.host
				? `${c.host} did not answer in time`
				: `The service did not answer the ${noun} in time`;
		case 'network':
			if (nothingSent(failure)) return `Could not reach ${who}`;
			if (isTlsCode(failure.networkCode))
				return `Could not open a secure (https) connection to ${c.host ?? 'the host of the service'}`;
			return `The connection to ${who} broke`;
		case 'malformed':
			return failure.html ? WEB_PAGE_ANSWERED : "The service's reply could not be read";
		case 'redirect':
			return c.host
				? `${c.host} kept redirecting the ${noun}`
				: `The service redirected the ${noun}`;
		case 'tooLarge':
			return "The service's reply was too large";
		case 'notImage':
			return failure.html
				? 'The URL returned a web page, not an image'
				: 'The URL returned something other than an image';
		case 'http':
			return httpTitle(c, noun);
		case 'refused':
			return describeRefusal(failure.refusal!, noun, '').message;
	}
}

const GATEWAY_ANSWERED = 'A gateway answered instead of the service';
const WEB_PAGE_ANSWERED = 'A web page answered instead of the service';

/** A web page, or a reply the service did not process: a proxy's word, not the service's. */
function fromGateway(c: Case): boolean {
	return c.failure.html === true || !c.failure.processed;
}

function httpTitle(c: Case, noun: string): string {
	const { status } = c;
	if ((status === 404 || status === 410) && c.kind === 'download')
		return 'The image URL no longer exists';
	if (c.host !== undefined) {
		if (status === 401 || status === 403) return `${c.host} refused the ${noun}`;
		if (status === 429) return `${c.host} asked to slow down`;
		return status >= 500
			? `${c.host} could not serve the image`
			: `${c.host} did not serve the image`;
	}
	if (status === 401) return KEY_REJECTED;
	if (status === 403) return KEY_NOT_ALLOWED;
	if (status === 404 && c.kind === 'taskQuery')
		return fromGateway(c) ? GATEWAY_ANSWERED : 'The service does not know this task';
	if (status === 404) return `Nothing at ${BASE_URL} answers this request`;
	if (status === 413) return 'The image is too large for the service';
	if (status === 415) return 'The service does not take this image type';
	if (status === 429) return 'The service asked to slow down';
	if (status >= 500)
		return fromGateway(c) ? GATEWAY_ANSWERED : `The service could not complete the ${noun}`;
	return `The service refused the ${noun}`;
}

/** An address without its query, which may hold a signature. */
function shownAddress(url: string | undefined): string {
	return url ? url.split(/[?#]/)[0] : 'the URL';
}

function replyFacts(failure: Failure, advice: string): string {
	const facts: string[] = [];
	if (failure.kind === 'notImage') {
		facts.push(
			`${shownAddress(failure.url)} answered HTTP ${failure.status} with ${failure.contentType || 'no content type'}.`,
		);
	}
	const code =
		failure.code !== undefined && failure.code !== failure.status
			? shortened(String(failure.code))
			: undefined;
	if (failure.kind === 'redirect' && failure.serviceMessage) {
		facts.push(`It pointed to ${shortened(failure.serviceMessage)}.`);
	} else if (failure.serviceMessage) {
		facts.push(
			`The reply said: "${shortened(failure.serviceMessage)}"${code ? ` (code ${code})` : ''}.`,
		);
	} else if (code) {
		facts.push(`The reply's code: ${code}.`);
	}
	// Submit advice quotes the request id itself, with what to do with it.
	if (failure.requestId && !advice.includes(failure.requestId))
		facts.push(`Request ID: ${shortened(failure.requestId)}.`);
	return facts.join(' ');
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
		retried: attempts > 1 ? ` It was tried ${attempts} times.` : '',
		host: failure.foreignHost,
		status: failure.status ?? 0,
		sentRequestId,
		wording,
	};
	const advice = ADVICE.find(([applies]) => applies(c))?.[1](c).trim() ?? '';
	const facts = replyFacts(failure, advice);
	const note = network(c) || failure.kind === 'timeout' ? networkCodeNote(failure.networkCode) : '';
	return {
		message: whatHappened(c),
		description: `${facts ? `${facts} ${advice}` : advice}${note}`,
		facts,
	};
}

/** After a reply from the service that lacks what this node needs. */
export function shapeAdvice(kind: RequestKind, requestId: string | undefined): string {
	if (kind === 'submit') return `The reply holds no task ID. ${submitUnsureAdvice(requestId)}`;
	return `The reply came from the service but lacks fields this node needs. Check that ${BASE_URL} points at the ${SERVICE_NAME} (version 1).`;
}
