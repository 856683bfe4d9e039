import type { Failure } from './errors';
import { isTlsCode, nothingSent, submitMayHaveLanded } from './errors';
import type { RequestKind } from './requestKinds';
import { MAX_RETRY_AFTER_MS, REQUEST_KINDS } from './requestKinds';

/**
 * n8n renders an error's title and description as HTML, where anything in angle brackets would
 * vanish: they are shown as look-alike quotation marks.
 */
export function withoutAngleBrackets(text: string): string {
	return text.replace(/</g, '‹').replace(/>/g, '›');
}

/**
 * The service's words are quoted in the description, never the title; an echoed request or a page
 * dump would bury the advice.
 */
const MAX_QUOTED_LENGTH = 300;

export function shortened(text: string): string {
	const oneLine = withoutAngleBrackets(text.replace(/\s+/g, ' ')).trim();
	return oneLine.length > MAX_QUOTED_LENGTH
		? `${oneLine.slice(0, MAX_QUOTED_LENGTH - 1).trimEnd()}…`
		: oneLine;
}

/** "10 minutes (until about 14:05 UTC)": when a long Retry-After ends, in words a person can act on. */
function waitInWords(retryAfterMs: number, now = Date.now()): string {
	const minutes = Math.ceil(retryAfterMs / 60_000);
	const until = new Date(now + retryAfterMs).toISOString().slice(11, 16);
	return `${minutes} minute${minutes === 1 ? '' : 's'} (until about ${until} UTC)`;
}

/** The request id to quote to the provider: the service's own, else the one this node sent. */
function requestToQuote(requestId: string | undefined, sentRequestId: string | undefined): string {
	if (requestId)
		return `give the service's provider the request ID ${requestId}, and it can tell whether the task exists`;
	if (sentRequestId) {
		return `the service gave no request ID; give its provider the request ID this node sent, ${sentRequestId}, and the time of this run`;
	}
	return 'the service gave no request ID: tell its provider the time of this run';
}

/**
 * The advice after a submit that may have created a task (a timeout, a gateway's 5xx, a cut
 * connection, a reply without a task id): nothing is lost yet, but running the item again bills twice.
 */
function submitUnsureAdvice(
	requestId: string | undefined,
	sentRequestId?: string,
	timedOut = false,
): string {
	const timeout = timedOut
		? " If the service is slow to accept, raise 'Submit Timeout' in the options."
		: '';
	return `The service may have created the task and may bill for it. Do not run this item again blindly: ${requestToQuote(requestId, sentRequestId)}.${timeout}`;
}

const NOT_THE_SERVICE =
	"It is not the service's host, so the Product Image credential is not the cause.";

/** Why a host could not be reached, in words, from the socket code. */
function unreachable(host: string, code: string | undefined): string {
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `The name ${host} did not resolve (${code}): check the URL for a typo, and this n8n's DNS.`;
	if (code === 'ECONNREFUSED')
		return `${host} refused the connection (${code}): nothing listens there, or a firewall turned it away.`;
	return `${host} could not be reached (${code ?? 'no code'}).`;
}

/**
 * Advice after a download from an address that is not the service's (a CDN a result points to, a
 * store's image): about that host, never the credential.
 */
function foreignAdvice(failure: Failure, host: string, retried: string): string | undefined {
	const code = failure.networkCode;
	if (failure.kind === 'timeout') {
		return `${host} did not answer in time.${retried} ${NOT_THE_SERVICE} Try again later, or check that this n8n can reach ${host}.`;
	}
	if (nothingSent(failure))
		return `Nothing was sent. ${unreachable(host, code)}${retried} ${NOT_THE_SERVICE}`;
	if (failure.kind === 'network' && isTlsCode(code)) {
		return `The secure connection to ${host} failed (${code}): its certificate or TLS setup is not one this n8n trusts, or the URL says https where the host speaks http.${retried} ${NOT_THE_SERVICE}`;
	}
	if (failure.kind === 'network') {
		return `The connection to ${host} broke before the image was complete.${retried} ${NOT_THE_SERVICE} Try again later.`;
	}
	if (failure.kind === 'redirect') {
		return `${host} kept redirecting the download (HTTP ${failure.status ?? '?'}), more often than this node follows or to a URL that is not http(s). Open the URL in a browser to see where it leads.`;
	}
	if (failure.kind !== 'http') return undefined;
	const status = failure.status ?? 0;
	if (status === 404 || status === 410) return undefined;
	if (status === 401 || status === 403) {
		return `${host} refused the download (HTTP ${status}). The API key goes to the service's host only, so the URL has to work on its own: a signed URL may have expired or been changed. Open it in a browser to check.`;
	}
	if (status === 429)
		return `${host} is limiting requests.${retried} Lower 'Max Concurrency' or try again later.`;
	if (status >= 500)
		return `${host} answered HTTP ${status}.${retried} ${NOT_THE_SERVICE} Try again later.`;
	return `${host} answered HTTP ${status} instead of the image. Open the URL in a browser to see what it serves.`;
}

/** What the user should do next, by what failed. */
function adviceFor(
	failure: Failure,
	kind: RequestKind,
	attempts: number,
	sentRequestId?: string,
): string {
	const retried = attempts > 1 ? ` It was tried ${attempts} times.` : '';
	const foreign =
		failure.foreignHost === undefined
			? undefined
			: foreignAdvice(failure, failure.foreignHost, retried);
	if (foreign !== undefined) return foreign;
	if (kind === 'submit' && submitMayHaveLanded(failure)) {
		const page = failure.html
			? 'A web page (a proxy or load balancer) answered instead of the service. '
			: '';
		return `${page}${submitUnsureAdvice(failure.requestId, sentRequestId, failure.kind === 'timeout')}`;
	}
	const billable = kind === 'analysis' || kind === 'plan';
	if (failure.kind === 'timeout') {
		return billable
			? "The service did not answer in time. It may still have done the work, so this was not sent again. Raise 'Timeout' in the options (the service recommends at least 120 seconds) or try again later."
			: `The service did not answer in time.${retried} Try again later.`;
	}
	if (nothingSent(failure)) {
		return `Nothing was sent: the service could not be reached.${retried} Check 'Base URL' in the Product Image API credential.`;
	}
	if (failure.kind === 'network') {
		return `The connection broke before the reply was complete.${retried} Try again later.`;
	}
	if (failure.kind === 'notImage') {
		return 'The URL answered with a page or a message (a sign-in portal, a notice from a CDN) instead of image bytes. Open the URL in a browser to see what it serves, and check the URL and its access rights.';
	}
	if (failure.kind === 'malformed') {
		return "The reply was not what the service sends. Check that 'Base URL' points at the service itself, not at a web page or proxy.";
	}
	if (failure.kind === 'redirect') {
		return "The service redirected an API call. Check 'Base URL' (http vs https, missing path).";
	}
	if (failure.kind === 'tooLarge') {
		return "The reply was larger than this node accepts for JSON. Check 'Base URL'.";
	}
	const status = failure.status ?? 0;
	if (status >= 500 && billable) {
		const who = failure.processed
			? 'The service could not complete the request'
			: 'A gateway answered in place of the service';
		return `${who}; the request may have reached the service, so it was not sent again. Try again later.`;
	}
	if (failure.html) {
		return "A web page answered instead of the service (a proxy, a load balancer or a wrong 'Base URL'). Check 'Base URL', or try again later if the service is down.";
	}
	if (status === 401) return 'Check the API key in the Product Image API credential.';
	if (status === 403)
		return 'The API key lacks permission: the service needs a full member-level key.';
	if (status === 404 && kind === 'taskQuery') {
		return 'The service does not know this task ID. Check it; tasks and their results are kept at most 3 days.';
	}
	if ((status === 404 || status === 410) && kind === 'download') {
		return 'The URL has expired or never existed: uploaded and result images are kept at most 3 days. Generate the image again.';
	}
	// The service's endpoints are fixed paths: a 404 on one means the request never reached them,
	// most often because 'Base URL' carries a path of its own (such as /v1) in front of them.
	if (status === 404) {
		return "Nothing at 'Base URL' answers this request. 'Base URL' is the service's URL without /v1 (the node adds /v1/open/…); correct it in the Product Image API credential and press its Test button.";
	}
	if (status === 413) return 'The image is too large for the service. Send a smaller file.';
	if (status === 415)
		return 'The service does not accept this file type. Send a JPEG, PNG or WebP image.';
	if (status === 400 || status === 422)
		return 'The service refused the request. Check the parameters its reply names.';
	if (status === 429) {
		if ((failure.retryAfterMs ?? 0) > MAX_RETRY_AFTER_MS) {
			return `The service is rate-limiting requests and asked to wait ${waitInWords(failure.retryAfterMs ?? 0)}, longer than this node waits inside a run. Run it again after that, or lower 'Max Concurrency'.`;
		}
		return `The service is rate-limiting requests.${retried} Lower 'Max Concurrency' or add a Wait node before this one.`;
	}
	if (status >= 500) {
		const who = failure.processed
			? 'The service could not complete the request'
			: 'A gateway answered in place of the service';
		return `${who}.${retried} Try again later.`;
	}
	return 'Check the parameters and the credential, then try again.';
}

/** An address without its query, which may hold a signature. */
function shownAddress(url: string | undefined): string {
	return url ? url.split(/[?#]/)[0] : 'the URL';
}

/**
 * The title: what happened, in a few words that are the node's own. The service's words, codes and
 * ids go to the description (`replyFacts`), so the title stays short and nothing in it is markup.
 */
function whatHappened(failure: Failure, kindLabel: string): string {
	// A connection that failed before any reply names where it went; a reply names itself.
	const label =
		failure.foreignHost !== undefined && (failure.kind === 'network' || failure.kind === 'timeout')
			? `${kindLabel} from ${failure.foreignHost}`
			: kindLabel;
	switch (failure.kind) {
		case 'http':
			return `${label} got HTTP ${failure.status ?? '?'}`;
		case 'timeout':
			return `${label} timed out`;
		case 'network': {
			const code = failure.networkCode ?? 'no code';
			if (nothingSent(failure)) return `${label} could not connect (${code})`;
			if (isTlsCode(failure.networkCode))
				return `${label} could not open a secure connection (${code})`;
			return `${label} lost its connection (${code})`;
		}
		case 'malformed':
			return `${label} got an unreadable reply${failure.status ? ` (HTTP ${failure.status})` : ''}`;
		case 'redirect':
			return `${label} was redirected`;
		case 'tooLarge':
			return `${label} got too large a reply`;
		case 'notImage':
			return `${label} got ${failure.html ? 'a web page' : 'something else'} instead of an image (HTTP ${failure.status})`;
	}
}

/** What the reply said and how to trace it: the service's words (bounded), its code, the request id. */
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

/**
 * A failed request as n8n shows it: the title says what happened; the description quotes the reply
 * (`facts`, also given alone) and says what to do next.
 */
export function describeFailure(
	failure: Failure,
	kind: RequestKind,
	attempts: number,
	sentRequestId?: string,
): { message: string; description: string; facts: string } {
	const advice = adviceFor(failure, kind, attempts, sentRequestId);
	const facts = replyFacts(failure, advice);
	return {
		message: whatHappened(failure, REQUEST_KINDS[kind].label),
		description: facts ? `${facts} ${advice}` : advice,
		facts,
	};
}

/** After a reply that came from the service but lacks what this node needs. */
export function shapeAdvice(kind: RequestKind, requestId: string | undefined): string {
	if (kind === 'submit') return `The reply holds no task ID. ${submitUnsureAdvice(requestId)}`;
	return "The reply came from the service but lacks fields this node needs. Check that 'Base URL' points at the Product Image service (version 1).";
}
