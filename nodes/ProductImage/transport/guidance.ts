import type { Failure } from './failure';
import { isTimeoutCode } from './failure';

export type RequestPurpose =
	| 'upload'
	| 'submit'
	| 'taskQuery'
	| 'download'
	| 'analysis'
	| 'plan';

const PURPOSE_LABEL: Record<RequestPurpose, string> = {
	upload: 'Image upload',
	submit: 'Generation submit',
	taskQuery: 'Task query',
	download: 'Image download',
	analysis: 'Product analysis',
	plan: 'A+ planning',
};

const SUBMIT_MAY_HAVE_LANDED =
	'The service may have taken the job. It was not sent again automatically because a second submit could bill twice: check your task list before re-running.';

/**
 * Whether a failed submit may still have created a task. Only a refusal the service stated (4xx)
 * or a connection that never opened rules it out; a gateway page, a cut connection, a timeout or
 * an unreadable 2xx all leave it open, and "try again" would be the wrong advice.
 */
function submitMayHaveLanded(failure: Failure): boolean {
	if (failure.kind === 'redirect') return false;
	if (failure.kind === 'network') return failure.networkCode !== 'ECONNREFUSED' && failure.networkCode !== 'ENOTFOUND';
	if (failure.kind === 'http') return (failure.status ?? 0) >= 500;
	return true;
}

/** What the user should do next, by what failed. */
function adviceFor(failure: Failure, purpose: RequestPurpose, attempts: number): string {
	const retried = attempts > 1 ? ` It was tried ${attempts} times.` : '';
	if (purpose === 'submit' && submitMayHaveLanded(failure)) {
		const page = failure.html ? 'A web page (a proxy or load balancer) answered instead of the service. ' : '';
		return `${page}${SUBMIT_MAY_HAVE_LANDED}`;
	}
	if (failure.kind === 'timeout') {
		return purpose === 'analysis' || purpose === 'plan'
			? 'The service did not answer in time. Raise "Timeout" in the options (the service recommends at least 120 seconds) or try again later.'
			: `The service did not answer in time.${retried} Try again later.`;
	}
	if (failure.kind === 'network') {
		if (failure.networkCode === 'ECONNREFUSED' || failure.networkCode === 'ENOTFOUND') {
			return 'The service could not be reached. Check the Base URL in the Product Image API credential.';
		}
		return `The connection broke before the reply was complete.${retried} Try again later.`;
	}
	if (failure.kind === 'malformed') {
		return 'The reply was not the JSON the service documents. Check that the Base URL points at the service itself, not at a web page or proxy.';
	}
	if (failure.kind === 'redirect') {
		return 'The service redirected an API call. Check the Base URL (http vs https, missing path).';
	}
	if (failure.kind === 'tooLarge') {
		return 'The reply was larger than this node accepts for JSON. Check the Base URL.';
	}
	if (failure.html) {
		return 'A web page answered instead of the service (a proxy, load balancer or wrong Base URL). Check the Base URL, or try again later if the service is down.';
	}
	const status = failure.status ?? 0;
	if (status === 401) return 'Check the API key in the Product Image API credential.';
	if (status === 403) return 'The API key lacks permission: the service needs a full member-level key.';
	if (status === 404 && purpose === 'taskQuery') {
		return 'The service does not know this task id. Check it; tasks and their results are kept at most 3 days.';
	}
	if ((status === 404 || status === 410) && purpose === 'download') {
		return 'The address has expired or never existed: uploaded and result images are kept at most 3 days. Generate the image again.';
	}
	if (status === 413) return 'The image is too large for the service. Send a smaller file.';
	if (status === 415) return 'The service does not accept this file type. Send a JPEG, PNG or WebP image.';
	if (status === 400 || status === 422) return 'The service refused the request. Check the parameters named in the message.';
	if (status === 429) {
		return `The service is rate-limiting requests.${retried} Lower "Max Concurrency" or add a Wait node before this one.`;
	}
	if (status >= 500) return `The service had an internal error.${retried} Try again later.`;
	return 'Check the parameters and the credential, then try again.';
}

export function describeFailure(
	failure: Failure,
	purpose: RequestPurpose,
	attempts: number,
): { message: string; description: string } {
	const label = PURPOSE_LABEL[purpose];
	let what: string;
	if (failure.kind === 'http') {
		what = `${label} failed with HTTP ${failure.status ?? '?'}`;
		if (failure.code !== undefined && failure.code !== failure.status) what += ` (code ${failure.code})`;
	} else if (failure.kind === 'timeout') {
		what = `${label} timed out`;
	} else if (failure.kind === 'network') {
		what = `${label} failed: connection error ${failure.networkCode ?? ''}`.trim();
	} else if (failure.kind === 'malformed') {
		what = `${label} returned an unreadable reply${failure.status ? ` (HTTP ${failure.status})` : ''}`;
	} else if (failure.kind === 'redirect') {
		what = `${label} was redirected`;
	} else {
		what = `${label} returned too large a reply`;
	}
	const said = failure.serviceMessage ? `: ${failure.serviceMessage}` : '';
	const requestId = failure.requestId ? ` [request ${failure.requestId}]` : '';
	return { message: `${what}${said}${requestId}`, description: adviceFor(failure, purpose, attempts) };
}

export function isTimeout(failure: Failure): boolean {
	return failure.kind === 'timeout' || isTimeoutCode(failure.networkCode);
}
