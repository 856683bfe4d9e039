import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { RateLimitGate } from './rateLimitGate';

export const CREDENTIAL_TYPE = 'productImageApi';

/** What every request of one node run shares: where the service is, what must never leak, its pace. */
export interface Session {
	baseUrl: string;
	origin: string;
	secrets: string[];
	/** One line per retry, for the run's hint. */
	retries: Array<{ reason: string }>;
	/** Every lane of the run waits here while the service asks for a pause (429). */
	rateLimit: RateLimitGate;
	isServiceUrl(url: string): boolean;
}

const sessions = new WeakMap<IExecuteFunctions, Promise<Session>>();

function originOf(url: string): string | undefined {
	try {
		return new URL(url).origin;
	} catch {
		return undefined;
	}
}

async function openSession(context: IExecuteFunctions): Promise<Session> {
	const credentials = await context.getCredentials<{ baseUrl?: string; apiKey?: string }>(
		CREDENTIAL_TYPE,
	);
	const baseUrl = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	const origin = originOf(baseUrl);
	if (!origin || !/^https?:\/\//i.test(baseUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's Base URL "${baseUrl}" is not an http(s) address`,
			{
				description:
					'Open the Product Image API credential and enter the service address, such as https://api.example.com.',
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

/** The session of this node run, if any request opened one. */
export async function openedSession(context: IExecuteFunctions): Promise<Session | undefined> {
	return await sessions.get(context)?.catch(() => undefined);
}

/** One session per node run: credentials are read once, however many items and requests follow. */
export async function getSession(context: IExecuteFunctions): Promise<Session> {
	let session = sessions.get(context);
	if (!session) {
		session = openSession(context);
		sessions.set(context, session);
	}
	return await session;
}
