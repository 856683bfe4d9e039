/**
 * Services sometimes echo request headers back in error bodies. Everything that came from the
 * service passes through here before it reaches a message, a hint, a log line or an output item.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	let result = text;
	for (const secret of secrets) {
		if (secret.length >= 4) result = result.split(secret).join('[redacted]');
	}
	return result
		.replace(/(bearer\s+)[^\s"',;}]+/gi, '$1[redacted]')
		.replace(/("?authorization"?\s*[:=]\s*"?)(?!\[redacted\])[^"\n,}]+/gi, '$1[redacted]');
}
