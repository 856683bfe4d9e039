import { asRecord } from './errors';
import { shortened } from './words';

/** n8n refused the request before connecting: its SSRF protection (by IP range or name) or another guard. */
export interface Refusal {
	by: 'ipRange' | 'hostname' | 'n8n';
	/** As in the request's URL; `ip`, what n8n resolved it to. */
	host: string;
	ip?: string;
	message: string;
}

/** n8n's mark on an error it will not retry (`markNonRetryable`), read without importing n8n. */
const NON_RETRYABLE = Symbol.for('n8n.backend-network.non-retryable-error');

/** n8n's `SsrfBlocked…Error`s, wrapped in a NodeApiError by the helpers with authentication. */
export function findRefusal(error: unknown, url: string): Refusal | undefined {
	let level = asRecord(error);
	for (let depth = 0; depth < 6 && level; depth++, level = asRecord(level.cause)) {
		const ssrf = /^SsrfBlocked(Ip|Hostname)Error$/.exec(String(level.name));
		if (!ssrf && (level as Record<symbol, unknown>)[NON_RETRYABLE] !== true) continue;
		const ip = typeof level.ip === 'string' ? level.ip : undefined;
		const host = URL.canParse(url)
			? new URL(url).hostname.replace(/^\[(.*)\]$/, '$1')
			: String(level.hostname ?? ip ?? url);
		const by = ssrf ? (ssrf[1] === 'Ip' ? 'ipRange' : 'hostname') : 'n8n';
		return { by, host, ip, message: String(level.message) };
	}
	return undefined;
}

/** For n8n's administrator: the guard, the host, the setting that allows it; `nothing` not sent. */
export function describeRefusal(refusal: Refusal, noun: string, nothing: string) {
	const { host, ip = host } = refusal;
	if (refusal.by === 'n8n')
		return {
			message: `n8n refused the ${noun}`,
			description: `n8n refused to send it: "${shortened(refusal.message)}". ${nothing} This is a setting of this n8n, not of the service: ask its administrator.`,
		};
	const range = `${ip}/${ip.includes(':') ? 128 : 32}`;
	const [why, allow] =
		refusal.by === 'hostname'
			? [
					`${host} is on this n8n's list of blocked hostnames (N8N_SSRF_BLOCKED_HOSTNAMES)`,
					`adding ${host} to N8N_SSRF_ALLOWED_HOSTNAMES`,
				]
			: ip === host
				? [`${host} is`, `adding ${range} to N8N_SSRF_ALLOWED_IP_RANGES`]
				: [
						`${host} resolves to ${ip},`,
						`adding ${host} to N8N_SSRF_ALLOWED_HOSTNAMES (or ${range} to N8N_SSRF_ALLOWED_IP_RANGES)`,
					];
	const blocked =
		refusal.by === 'hostname'
			? why
			: `${why} in an IP range this n8n blocks (N8N_SSRF_BLOCKED_IP_RANGES)`;
	return {
		message: `n8n's SSRF protection blocked ${host}`,
		description: `n8n did not connect: ${blocked}. ${nothing} An n8n administrator can allow it by ${allow} and restarting n8n.`,
	};
}
