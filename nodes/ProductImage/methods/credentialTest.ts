import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import type { ProbeReply } from './probeVerdict';
import { keylessVerdict, PROBE_PATH, probeVerdict, unreachableVerdict } from './probeVerdict';

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
	const baseUrl = String(data.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	const apiKey = String(data.apiKey ?? '');
	if (!/^https?:\/\/[^/\s]+/i.test(baseUrl)) {
		return {
			status: 'Error',
			message: `The Base URL "${baseUrl}" is not an http(s) address such as https://api.example.com`,
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
