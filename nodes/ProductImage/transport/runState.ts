import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { BASE_URL } from './words';
import { RateLimitGate } from './pause';

export const CREDENTIAL_TYPE = 'productImageApi';

/** The credential, read once per node run. */
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
 * The output is lost when an item fails without Continue On Fail: from then on nothing more is
 * sent (no submit, no retry), the waits end, and the run's error lists the accepted tasks.
 */
export interface RunState {
	/** Requests already on the wire are not cut: a submit's reply names a billed task. */
	stop: AbortController;
	acceptedTasks: AcceptedTask[];
	/** For the run's hint. */
	retries: Array<{ reason: string }>;
	/** Every request to the service waits here while the service asks for a pause (429). */
	rateLimit: RateLimitGate;
	/** Named by 429 advice. */
	concurrencyLabel?: string;
	service?: Promise<ServiceAccess>;
}

/** Base URL, redirect target, image addresses: anything else is a mistake or an attack. */
export function isHttpUrl(url: string): boolean {
	if (!/^https?:\/\/[^/\s]+/i.test(url) || !URL.canParse(url)) return false;
	const { protocol } = new URL(url);
	return protocol === 'http:' || protocol === 'https:';
}

export function normalizeBaseUrl(value: unknown): string {
	return String(value ?? '')
		.trim()
		.replace(/\/+$/, '');
}

function originOf(url: string): string | undefined {
	return URL.canParse(url) ? new URL(url).origin : undefined;
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
	return { baseUrl, origin, secrets: [apiKey], isServiceUrl: (url) => originOf(url) === origin };
}

const runStates = new WeakMap<IExecuteFunctions, RunState>();

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

export async function serviceAccess(context: IExecuteFunctions): Promise<ServiceAccess> {
	const state = runStateOf(context);
	state.service ??= readServiceAccess(context);
	return await state.service;
}

/** Undefined when no request read it, or the credential failed. */
export async function serviceAccessIfRead(
	context: IExecuteFunctions,
): Promise<ServiceAccess | undefined> {
	return await runStateOf(context).service?.catch(() => undefined);
}

/** Ends a pause and refuses the next attempt. */
export function stopSignal(context: IExecuteFunctions): AbortSignal {
	const cancel = context.getExecutionCancelSignal?.();
	const stop = runStateOf(context).stop.signal;
	return cancel ? AbortSignal.any([cancel, stop]) : stop;
}
