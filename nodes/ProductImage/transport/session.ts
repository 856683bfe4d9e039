import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isHttpAddress } from '../helpers/imageUrls';

export const CREDENTIAL_TYPE = 'productImageApi';

/** What every request of one node run shares: where the service is, and what must never leak. */
export interface Session {
	baseUrl: string;
	origin: string;
	secrets: string[];
	retries: RetryRecord[];
}

export interface RetryRecord {
	purpose: string;
	reason: string;
	delayMs: number;
}

const sessions = new WeakMap<IExecuteFunctions, Promise<Session>>();

async function openSession(context: IExecuteFunctions): Promise<Session> {
	const credentials = await context.getCredentials<{ baseUrl?: string; apiKey?: string }>(
		CREDENTIAL_TYPE,
	);
	const baseUrl = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '');
	if (!isHttpAddress(baseUrl)) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's Base URL "${baseUrl}" is not an http(s) address`,
			{ description: 'Open the Product Image API credential and enter the service address, such as https://api.example.com.' },
		);
	}
	const apiKey = String(credentials.apiKey ?? '');
	return { baseUrl, origin: new URL(baseUrl).origin, secrets: [apiKey], retries: [] };
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
