import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { downloadStream } from '../transport';

type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

const MIME_BY_EXTENSION: Record<string, string> = {
	png: 'image/png',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
	webp: 'image/webp',
	gif: 'image/gif',
	avif: 'image/avif',
	bmp: 'image/bmp',
	tif: 'image/tiff',
	tiff: 'image/tiff',
};

/** The last path segment, decoded: asset ids travel URL-encoded inside the address. */
export function fileNameFromAddress(address: string): string | undefined {
	try {
		const segments = new URL(address).pathname.split('/').filter(Boolean);
		const last = segments.length ? decodeURIComponent(segments[segments.length - 1]) : '';
		const name = last.split('/').pop() ?? '';
		return name || undefined;
	} catch {
		return undefined;
	}
}

const EXTENSION_BY_MIME: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'image/avif': 'avif',
	'image/bmp': 'bmp',
	'image/tiff': 'tif',
	'image/svg+xml': 'svg',
};

function extensionOf(fileName: string): string | undefined {
	return /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
}

function mimeTypeFromName(fileName: string): string | undefined {
	const extension = extensionOf(fileName);
	return extension ? MIME_BY_EXTENSION[extension] : undefined;
}

/** A name without an extension gets the one of its MIME type (image/jpeg: .jpg), so files open. */
export function withExtension(fileName: string, mimeType: string): string {
	if (extensionOf(fileName) !== undefined) return fileName;
	const extension = EXTENSION_BY_MIME[mimeType];
	return extension ? `${fileName}.${extension}` : fileName;
}

/**
 * A MIME type is always passed to prepareBinaryData: without one it sniffs the bytes with an
 * ESM-only module, which is slower and fails in some runtimes.
 */
export function chooseMimeType(headerType: string | undefined, fileName: string): string {
	if (
		headerType &&
		headerType !== 'application/octet-stream' &&
		headerType !== 'binary/octet-stream'
	) {
		return headerType;
	}
	return mimeTypeFromName(fileName) ?? headerType ?? 'application/octet-stream';
}

/** Streams an address into n8n's binary store (memory, filesystem or S3, as the instance is set). */
export async function downloadToBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	address: string,
	options: { fileName?: string; deadline?: number; errorContext?: IDataObject } = {},
): Promise<IBinaryData> {
	return (await download(context, itemIndex, address, options, false)).binary;
}

/**
 * As downloadToBinary, and the image's pixel size read from the stored file's first bytes; a file
 * name without an extension gets the one of the type received.
 */
export async function downloadMeasured(
	context: IExecuteFunctions,
	itemIndex: number,
	address: string,
	options: { fileName?: string; deadline?: number; errorContext?: IDataObject } = {},
): Promise<{ binary: IBinaryData; pixelSize?: PixelSize }> {
	return await download(context, itemIndex, address, options, true);
}

async function download(
	context: IExecuteFunctions,
	itemIndex: number,
	address: string,
	options: { fileName?: string; deadline?: number; errorContext?: IDataObject },
	measure: boolean,
): Promise<{ binary: IBinaryData; pixelSize?: PixelSize }> {
	return (await downloadStream.call(context, {
		kind: 'download',
		url: address,
		itemIndex,
		deadline: options.deadline,
		errorContext: { url: address, ...options.errorContext },
		consume: async (stream, info) => {
			const named = options.fileName ?? fileNameFromAddress(info.finalUrl) ?? 'image';
			const mimeType = chooseMimeType(info.mimeType, named);
			// A name made by the node has no extension yet: the one of the type received makes it open.
			const fileName = measure ? withExtension(named, mimeType) : named;
			const binary = await context.helpers.prepareBinaryData(
				stream as BinarySource,
				fileName,
				mimeType,
			);
			return measure ? { binary, pixelSize: await storedPixelSize(context, binary) } : { binary };
		},
	})) as { binary: IBinaryData; pixelSize?: PixelSize };
}

export interface PixelSize {
	width: number;
	height: number;
}

function png(bytes: Buffer): PixelSize | undefined {
	if (
		bytes.length < 24 ||
		bytes.readUInt32BE(0) !== 0x89504e47 ||
		bytes.toString('latin1', 12, 16) !== 'IHDR'
	)
		return undefined;
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function webp(bytes: Buffer): PixelSize | undefined {
	if (
		bytes.length < 30 ||
		bytes.toString('latin1', 0, 4) !== 'RIFF' ||
		bytes.toString('latin1', 8, 12) !== 'WEBP'
	)
		return undefined;
	const chunk = bytes.toString('latin1', 12, 16);
	if (chunk === 'VP8X')
		return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
	if (chunk === 'VP8L') {
		const bits = bytes.readUInt32LE(21);
		return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
	}
	if (chunk === 'VP8 ')
		return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
	return undefined;
}

/** Start-of-frame markers carry the size; the others (DHT, JPG, DAC) share their range. */
const isStartOfFrame = (marker: number) =>
	marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpeg(bytes: Buffer): PixelSize | undefined {
	if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
	let offset = 2;
	while (offset + 9 <= bytes.length) {
		if (bytes[offset] !== 0xff) return undefined;
		const marker = bytes[offset + 1];
		if (marker === 0xff) {
			offset += 1;
			continue;
		}
		if (isStartOfFrame(marker))
			return { width: bytes.readUInt16BE(offset + 7), height: bytes.readUInt16BE(offset + 5) };
		offset += 2 + bytes.readUInt16BE(offset + 2);
	}
	return undefined;
}

/** The pixel size in an image's header (PNG, JPEG, WebP), or undefined while more bytes are needed or the format is another. */
export function pixelSizeOf(head: Buffer): PixelSize | undefined {
	return png(head) ?? webp(head) ?? jpeg(head);
}

/** A JPEG's frame header may follow large metadata; beyond this the size is left unknown. */
const MAX_HEAD_BYTES = 512 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * The pixel size of an image n8n has stored, read from its first bytes only: from the binary store
 * by stream (filesystem, S3), or from the start of the base64 an in-memory binary carries.
 */
export async function storedPixelSize(
	context: IExecuteFunctions,
	binary: IBinaryData,
): Promise<PixelSize | undefined> {
	if (binary.id) {
		const stream = await context.helpers.getBinaryStream(binary.id, CHUNK_BYTES);
		let head = Buffer.alloc(0);
		try {
			for await (const chunk of stream) {
				head = Buffer.concat([head, chunk as Buffer]);
				const size = pixelSizeOf(head);
				if (size || head.length >= MAX_HEAD_BYTES) return size;
			}
		} finally {
			stream.destroy();
		}
		return pixelSizeOf(head);
	}
	const base64Chars = Math.ceil(MAX_HEAD_BYTES / 3) * 4;
	return pixelSizeOf(Buffer.from(binary.data.slice(0, base64Chars), 'base64'));
}
