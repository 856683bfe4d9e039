/** JSON replies are small; anything larger is not the service talking. */
export const JSON_BODY_LIMIT = 10 * 1024 * 1024;
/** Error bodies only feed a message. */
export const ERROR_BODY_LIMIT = 64 * 1024;

export type ByteStream = AsyncIterable<Uint8Array | string> & { destroy?: () => void };

/** Reads a reply body up to `limit` bytes; a larger one is cut off and reported as such. */
export async function readLimited(
	stream: unknown,
	limit: number,
): Promise<{ text: string; truncated: boolean }> {
	if (typeof stream === 'string') return { text: stream.slice(0, limit), truncated: stream.length > limit };
	if (stream === undefined || stream === null) return { text: '', truncated: false };
	if (!isAsyncIterable(stream)) return { text: JSON.stringify(stream), truncated: false };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
		size += buffer.length;
		if (size > limit) {
			chunks.push(buffer.subarray(0, buffer.length - (size - limit)));
			stream.destroy?.();
			return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
		}
		chunks.push(buffer);
	}
	return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

/** A reply whose body is not wanted still has to be consumed, or its socket is never freed. */
export function discard(stream: unknown): void {
	if (stream && typeof (stream as ByteStream).destroy === 'function') (stream as ByteStream).destroy?.();
}

function isAsyncIterable(value: unknown): value is ByteStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
	);
}

/** The first heading or title of an HTML error page, which is what a person would read. */
export function htmlHeadline(html: string): string | undefined {
	const match = /<(title|h1)[^>]*>([^<]{1,200})</i.exec(html);
	return match ? match[2].trim() : undefined;
}

export function looksLikeHtml(text: string, contentType: string | undefined): boolean {
	return /text\/html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)/i.test(text);
}
