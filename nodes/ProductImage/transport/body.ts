/** JSON replies are small; anything larger is not the service talking. */
export const JSON_BODY_LIMIT = 10 * 1024 * 1024;
/** Error bodies only feed a message. */
export const ERROR_BODY_LIMIT = 64 * 1024;

export type ByteStream = AsyncIterable<Uint8Array | string> & { destroy?: () => void };

/** The parts of a Node readable stream a peek needs; a download body is an IncomingMessage. */
interface PausableStream {
	once(event: 'data', listener: (chunk: Buffer) => void): unknown;
	once(event: 'end' | 'error', listener: (error?: Error) => void): unknown;
	on(event: 'newListener', listener: (event: string | symbol) => void): unknown;
	removeListener(event: string, listener: (...args: never[]) => void): unknown;
	pause(): unknown;
	resume(): unknown;
	isPaused(): boolean;
	unshift(chunk: Buffer): void;
}

/**
 * A stream paused by hand stays paused when a reader later adds a 'data' listener (n8n's
 * in-memory binary mode reads that way); resume it for that reader. Pipes resume by themselves.
 */
function resumeForNextReader(stream: PausableStream): void {
	const onNewListener = (event: string | symbol) => {
		if (event !== 'data') return;
		stream.removeListener('newListener', onNewListener);
		// The listener is added right after this event: resume once it is there.
		void Promise.resolve().then(() => {
			if (stream.isPaused()) stream.resume();
		});
	};
	stream.on('newListener', onNewListener);
}

/** Reads a reply body up to `limit` bytes; a larger one is cut off and reported as such. */
export async function readLimited(
	stream: unknown,
	limit: number,
): Promise<{ text: string; truncated: boolean }> {
	if (typeof stream === 'string')
		return { text: stream.slice(0, limit), truncated: stream.length > limit };
	if (stream === undefined || stream === null) return { text: '', truncated: false };
	if (!isAsyncIterable(stream)) return { text: JSON.stringify(stream), truncated: false };
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		const buffer = Buffer.from(chunk);
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
	if (stream && typeof (stream as ByteStream).destroy === 'function')
		(stream as ByteStream).destroy?.();
}

function isAsyncIterable(value: unknown): value is ByteStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
	);
}

function isPausable(value: unknown): value is PausableStream {
	const record = value as Record<string, unknown> | null;
	return (
		typeof record?.once === 'function' &&
		typeof record.unshift === 'function' &&
		typeof record.pause === 'function' &&
		typeof record.isPaused === 'function'
	);
}

/**
 * The first bytes of a body, without consuming them: the chunk is put back at the front of the same
 * stream, so whoever reads it next (n8n's binary store) still gets every byte, and nothing beyond
 * the first chunk is buffered. Undefined for an empty body or a body that is not a stream.
 */
export async function peekFirstChunk(stream: unknown): Promise<Buffer | undefined> {
	if (Buffer.isBuffer(stream)) return stream;
	if (typeof stream === 'string') return Buffer.from(stream);
	if (!isPausable(stream)) return undefined;
	return await new Promise<Buffer | undefined>((resolve, reject) => {
		const onData = (chunk: Buffer) => {
			stream.pause();
			stream.unshift(chunk);
			resumeForNextReader(stream);
			settle();
			resolve(Buffer.from(chunk));
		};
		const onEnd = () => {
			settle();
			resolve(undefined);
		};
		const onError = (error?: Error) => {
			settle();
			reject(error);
		};
		const settle = () => {
			stream.removeListener('data', onData);
			stream.removeListener('end', onEnd);
			stream.removeListener('error', onError);
		};
		stream.once('data', onData);
		stream.once('end', onEnd);
		stream.once('error', onError);
	});
}

/** The first heading or title of an HTML error page, which is what a person would read. */
export function htmlHeadline(html: string): string | undefined {
	const match = /<(title|h1)[^>]*>([^<]{1,200})</i.exec(html);
	return match ? match[2].trim() : undefined;
}

/**
 * What an XML error of a storage service or CDN says (`<Error><Code>…</Code><Message>…</Message>`),
 * as "Code: Message"; the raw markup means nothing to the person reading the error.
 */
export function xmlErrorHeadline(xml: string): string | undefined {
	if (!/^\s*(<\?xml[^>]*>\s*)?<Error[\s>]/i.test(xml)) return undefined;
	const field = (name: string) =>
		new RegExp(`<${name}>([^<]{1,4000})</${name}>`, 'i').exec(xml)?.[1].trim();
	const parts = [field('Code'), field('Message')].filter(Boolean);
	return parts.length ? decodeXmlEntities(parts.join(': ')) : undefined;
}

function decodeXmlEntities(text: string): string {
	return text
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&amp;/g, '&');
}

export function looksLikeHtml(text: string, contentType: string | undefined): boolean {
	return /text\/html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)/i.test(text);
}

/** Markup or JSON: what a web page, an XML error or an API error starts with, and no image does. */
export function looksLikeText(bytes: Buffer): boolean {
	const start = bytes
		.subarray(0, 512)
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart();
	if (/<svg[\s>]/i.test(start)) return false;
	return /^(<(!doctype|html|head|body|\?xml|error)|\{|\[)/i.test(start);
}
