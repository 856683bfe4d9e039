/**
 * `imageUrls` arrives as whatever the user or an expression produced: a list, one string separated
 * by new lines or commas, or nothing. A list's entries are addresses as given. A string splits on
 * new lines, and on a comma only where the next entry starts a new http(s) address: CDN
 * transformation addresses (`/upload/w_400,h_300/x.jpg`) carry commas of their own.
 */
export function splitImageUrls(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const entries = Array.isArray(value)
		? value.map((entry) => (typeof entry === 'string' ? entry : String(entry)))
		: String(value).split(/\r?\n|,(?=\s*https?:\/\/)/i);
	return entries.map((entry) => entry.trim()).filter((entry) => entry.length > 0);
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
