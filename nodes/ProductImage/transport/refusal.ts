// n8n's own refusal of a request, before any connection: how it reaches the node, and how it is
// worded for the administrator who can lift it.
import { asRecord } from './errors';
import { shortened } from './words';

/** n8n refused the request before connecting: its SSRF protection, or another guard it marks final. */
export interface Refusal {
	/** What the SSRF protection matched (the address's IP range, or the name), or another guard. */
	by: 'ipRange' | 'hostname' | 'n8n';
	/** As in the request's URL, without the port. */
	host: string;
	/** The address n8n resolved the host to, when it blocked by IP range. */
	ip?: string;
	/** n8n's own words. */
	message: string;
}

/** n8n's mark on an error it will not retry (`markNonRetryable`), read without importing n8n. */
const NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

/**
 * n8n raises `SsrfBlockedIpError` and `SsrfBlockedHostnameError` before any connection, and the
 * helpers with authentication wrap them in a NodeApiError: look down the causes.
 */
export function findRefusal(error: unknown, url: string): Refusal | undefined {
	let level = asRecord(error);
	for (let depth = 0; depth < 6 && level; depth++, level = asRecord(level.cause)) {
		const ssrf = /^SsrfBlocked(Ip|Hostname)Error$/.exec(String(level.name));
		if (!ssrf && (level as Record<symbol, unknown>)[NON_RETRYABLE] !== true) continue;
		const ip = typeof level.ip === 'string' ? level.ip : undefined;
		return {
			by: ssrf ? (ssrf[1] === 'Ip' ? 'ipRange' : 'hostname') : 'n8n',
			host: hostOf(url) ?? String(level.hostname ?? ip ?? url),
			ip,
			message: String(level.message),
		};
	}
	return undefined;
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
	} catch {
		return undefined;
	}
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
