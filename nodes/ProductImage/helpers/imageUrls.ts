/**
 * `imageUrls` arrives as whatever the user or an expression produced: a list, one string separated
 * by commas or new lines, or nothing. Entries are trimmed and empty ones dropped.
 */
export function splitImageUrls(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const entries = Array.isArray(value) ? value : [value];
	return entries
		.flatMap((entry) => (typeof entry === 'string' ? entry.split(/[\n,]/) : [String(entry)]))
		.map((entry) => entry.trim())
		.filter((entry) => entry.length > 0);
}

/** The service fetches these addresses itself; anything but http(s) is a mistake or an attack. */
export function isHttpAddress(value: string): boolean {
	try {
		const { protocol } = new URL(value);
		return protocol === 'http:' || protocol === 'https:';
	} catch {
		return false;
	}
}

export function splitFieldNames(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name.length > 0);
}
