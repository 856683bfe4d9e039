import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RateLimitGate } from './pause';

export const CREDENTIAL_TYPE = 'productImageApi';

/**
 * What every request of one node run shares: where the service is, what must never leak, its
 * pace. Read from the credential once per run, however many items and requests follow.
 */
export interface RunState {
	baseUrl: string;
	origin: string;
	secrets: string[];
	/** One line per retry, for the run's hint. */
	retries: Array<{ reason: string }>;
	/** Every request of the run waits here while the service asks for a pause (429). */
	rateLimit: RateLimitGate;
	isServiceUrl(url: string): boolean;
}

/**
 * An http(s) address with a host: the credential's Base URL, where a redirect leads, and every
 * image address the service is asked to fetch (anything else is a mistake or an attack).
 */
export function isHttpUrl(url: string): boolean {
	if (!/^https?:\/\/[^/\s]+/i.test(url)) return false;
	try {
		const { protocol } = new URL(url);
		return protocol === 'http:' || protocol === 'https:';
	} catch {
		return false;
	}
}

/** The Base URL as typed in the credential, without surrounding blanks or trailing slashes. */
export function normalizeBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}

const runStates = new WeakMap<IExecuteFunctions, Promise<RunState>>();

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

async function readRunState(context: IExecuteFunctions): Promise<RunState> {
	const credentials = await context.getCredentials<{ baseUrl?: string; apiKey?: string }>(
		CREDENTIAL_TYPE,
	);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const origin = originOf(baseUrl);
	if (!origin || !isHttpUrl(baseUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			"The credential's 'Base URL' is not an http(s) URL",
			{
				description: `It reads "${baseUrl}". Open the Product Image API credential and enter the service's URL, such as https://api.example.com.`,
			},
		);
	}
	const apiKey = String(credentials.apiKey ?? '');
	return {
		baseUrl,
		origin,
		secrets: [apiKey],
		retries: [],
		rateLimit: new RateLimitGate(),
		isServiceUrl: (url) => originOf(url) === origin,
	};
}

const runStops = new WeakMap<IExecuteFunctions, AbortController>();

/**
 * Raised when an item of the run fails without Continue On Fail. The run's output is lost then, so
 * from that moment no request of the run is sent, not even a retry: a submit sent after it would
 * be billed for images nobody receives. Requests already on the wire are not cut: a submit's
 * reply names a billed task the run's error lists.
 */
export function runStop(context: IExecuteFunctions): AbortController {
	let stop = runStops.get(context);
	if (!stop) {
		stop = new AbortController();
		runStops.set(context, stop);
	}
	return stop;
}

/** What ends a pause and refuses the next attempt: the execution was cancelled, or the run stopped. */
export function stopSignal(context: IExecuteFunctions): AbortSignal {
	const cancel = context.getExecutionCancelSignal?.();
	const stop = runStop(context).signal;
	return cancel ? AbortSignal.any([cancel, stop]) : stop;
}

/** The state of this node run, if any request read it. */
export async function openedRunState(context: IExecuteFunctions): Promise<RunState | undefined> {
	return await runStates.get(context)?.catch(() => undefined);
}

/** One state per node run: the credential is read once, however many items and requests follow. */
export async function getRunState(context: IExecuteFunctions): Promise<RunState> {
	let state = runStates.get(context);
	if (!state) {
		state = readRunState(context);
		runStates.set(context, state);
	}
	return await state;
}
