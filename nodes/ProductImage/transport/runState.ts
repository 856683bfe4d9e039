import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BASE_URL } from './guidance';
import { RateLimitGate } from './pause';

export const CREDENTIAL_TYPE = 'productImageApi';

/** Where the service is and what must never leak: the credential, read once per node run. */
export interface ServiceAccess {
	baseUrl: string;
	origin: string;
	secrets: string[];
	isServiceUrl(url: string): boolean;
}

/** A generation the service accepted during this node run: it is billed whatever happens next. */
export interface AcceptedTask {
	itemIndex: number;
	taskId: string;
}

/**
 * What the items and requests of one node run share. The node's output is lost when an item fails
 * without Continue On Fail, so from then on nothing more is sent (no submit, no retry), the waits
 * end, and the run's error lists the tasks the service accepted.
 */
export interface RunState {
	/**
	 * Raised when an item fails without Continue On Fail. Requests already on the wire are not
	 * cut: a submit's reply names a billed task the run's error lists.
	 */
	stop: AbortController;
	/** The generations the service accepted during this run, billed whatever happens next. */
	acceptedTasks: AcceptedTask[];
	/** One line per retry, for the run's hint. */
	retries: Array<{ reason: string }>;
	/** Every request to the service waits here while the service asks for a pause (429). */
	rateLimit: RateLimitGate;
	/** The option that runs this operation's items at the same time, where it has one: 429 advice names it. */
	concurrencyLabel?: string;
	/** The credential, read by the run's first request. */
	service?: Promise<ServiceAccess>;
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

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

async function readServiceAccess(context: IExecuteFunctions): Promise<ServiceAccess> {
	const credentials = await context.getCredentials<{ baseUrl?: string; apiKey?: string }>(
		CREDENTIAL_TYPE,
	);
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const origin = originOf(baseUrl);
	if (!origin || !isHttpUrl(baseUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's ${BASE_URL} is not an http(s) URL`,
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
		isServiceUrl: (url) => originOf(url) === origin,
	};
}

const runStates = new WeakMap<IExecuteFunctions, RunState>();

/** The state of this node run, made by its first caller. */
export function runStateOf(context: IExecuteFunctions): RunState {
	let state = runStates.get(context);
	if (!state) {
		state = {
			stop: new AbortController(),
			acceptedTasks: [],
			retries: [],
			rateLimit: new RateLimitGate(),
		};
		runStates.set(context, state);
	}
	return state;
}

/** The run's service: the credential is read once, however many items and requests follow. */
export async function serviceAccess(context: IExecuteFunctions): Promise<ServiceAccess> {
	const state = runStateOf(context);
	state.service ??= readServiceAccess(context);
	return await state.service;
}

/** The service as this run's requests read it; undefined when none did, or the credential failed. */
export async function serviceAccessIfRead(
	context: IExecuteFunctions,
): Promise<ServiceAccess | undefined> {
	return await runStateOf(context).service?.catch(() => undefined);
}

/** What ends a pause and refuses the next attempt: the execution was canceled, or the run stopped. */
export function stopSignal(context: IExecuteFunctions): AbortSignal {
	const cancel = context.getExecutionCancelSignal?.();
	const stop = runStateOf(context).stop.signal;
	return cancel ? AbortSignal.any([cancel, stop]) : stop;
}
