import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { z } from 'zod';

import { downloadUrlProperty } from '../descriptions/common.descriptions';
import { downloadStream } from '../transport/request';
import { GENERIC_TYPES, isHttpUrl, peekFirstChunk } from '../transport/send';
import { imageAddressesOf } from './imageInputs';
import { optionOrDefault, parameterError, readOptions, validateParameter } from './parameters';

type BinarySource = Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0];

/** The first extension is the one a file is given. */
const IMAGE_EXTENSIONS: Record<string, string[]> = {
	'image/png': ['png'],
	'image/jpeg': ['jpg', 'jpeg'],
	'image/webp': ['webp'],
	'image/gif': ['gif'],
	'image/avif': ['avif'],
	'image/bmp': ['bmp'],
	'image/tiff': ['tif', 'tiff'],
	'image/svg+xml': ['svg'],
};

const MIME_BY_EXTENSION: Record<string, string> = Object.fromEntries(
	Object.entries(IMAGE_EXTENSIONS).flatMap(([mime, extensions]) =>
		extensions.map((extension) => [extension, mime]),
	),
);

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

function extensionOf(fileName: string): string | undefined {
	return /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
}

/** So files open as what they are: an extension added, or swapped where it names another image type. */
export function withExtension(fileName: string, mimeType: string): string {
	const wanted = IMAGE_EXTENSIONS[mimeType]?.[0];
	const extension = extensionOf(fileName);
	if (!wanted || (extension && MIME_BY_EXTENSION[extension] === mimeType)) return fileName;
	const base =
		extension && MIME_BY_EXTENSION[extension] ? fileName.slice(0, -extension.length - 1) : fileName;
	return `${base}.${wanted}`;
}

function imageTypeOf(head: Buffer | undefined): string | undefined {
	if (!head || head.length < 12) return undefined;
	if (head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a)
		return 'image/png';
	if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
	if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
		return 'image/webp';
	if (/^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return 'image/gif';
	if (head.toString('latin1', 4, 8) === 'ftyp' && /^avi[fs]$/.test(head.toString('latin1', 8, 12)))
		return 'image/avif';
	return undefined;
}

/** Always given to prepareBinaryData, whose own sniffing fails in some runtimes; the bytes win. */
export function chooseMimeType(
	headerType: string | undefined,
	fileName: string,
	sniffed?: string,
): string {
	if (sniffed && (!headerType || GENERIC_TYPES.has(headerType) || headerType.startsWith('image/')))
		return sniffed;
	if (headerType && !GENERIC_TYPES.has(headerType)) return headerType;
	const fromName = MIME_BY_EXTENSION[extensionOf(fileName) ?? ''];
	return fromName ?? headerType ?? 'application/octet-stream';
}

/** Streams into n8n's binary store (memory, filesystem or S3, as the instance is set). */
export async function downloadToBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	address: string,
	options: { fileName?: string; errorContext?: IDataObject; measure?: boolean } = {},
): Promise<{ binary: IBinaryData; pixelSize?: PixelSize }> {
	return (await downloadStream.call(context, {
		kind: 'download',
		url: address,
		itemIndex,
		errorContext: { url: address, ...options.errorContext },
		consume: async (stream, info) => {
			const head = await peekFirstChunk(stream);
			const named = options.fileName ?? fileNameFromAddress(info.finalUrl) ?? 'image';
			const mimeType = chooseMimeType(info.mimeType, named, imageTypeOf(head));
			const fileName = withExtension(named, mimeType);
			const binary = await context.helpers.prepareBinaryData(
				stream as BinarySource,
				fileName,
				mimeType,
			);
			return options.measure
				? { binary, pixelSize: await storedPixelSize(context, binary) }
				: { binary };
		},
	})) as { binary: IBinaryData; pixelSize?: PixelSize };
}

export interface PixelSize {
	width: number;
	height: number;
}

// Each reader gets bytes of its own type (imageTypeOf checked): undefined while more are needed.

function png(bytes: Buffer): PixelSize | undefined {
	if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return undefined;
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function webp(bytes: Buffer): PixelSize | undefined {
	if (bytes.length < 30) return undefined;
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

/** AVIF (ISO BMFF): the first image spatial extents property (`ispe`) of its meta box. */
function avif(bytes: Buffer): PixelSize | undefined {
	const at = bytes.indexOf('ispe', 12, 'latin1');
	if (at < 0 || at + 16 > bytes.length) return undefined;
	return { width: bytes.readUInt32BE(at + 8), height: bytes.readUInt32BE(at + 12) };
}

const PIXEL_SIZE_READERS: Record<string, (bytes: Buffer) => PixelSize | undefined> = {
	'image/png': png,
	'image/jpeg': jpeg,
	'image/webp': webp,
	'image/gif': (bytes) => ({ width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) }),
	'image/avif': avif,
};

export function pixelSizeOf(head: Buffer): PixelSize | undefined {
	const type = imageTypeOf(head);
	return type === undefined ? undefined : PIXEL_SIZE_READERS[type](head);
}

/** A JPEG's frame header may follow large metadata; beyond this the size is left unknown. */
const MAX_HEAD_BYTES = 512 * 1024;
const CHUNK_BYTES = 64 * 1024;

/** Read from the first bytes only: by stream (filesystem, S3), or the start of in-memory base64. */
async function storedPixelSize(
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

// Image → Download, as both versions run it; each version gives the option of the output field.

const URL_LABEL = downloadUrlProperty.displayName;

const addressSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(isHttpUrl, 'must be an http(s) URL');

export type DownloadParameters = ReturnType<typeof readDownload>;

/** A dragged store image (an object, or a list of one) is read as Image URLs reads it. */
function oneAddress(context: IExecuteFunctions, itemIndex: number, value: unknown): unknown {
	if (typeof value === 'string' && !/^\s*[[{]/.test(value)) return value;
	const raw = context.getNode().parameters.url;
	const addresses = imageAddressesOf(context, itemIndex, URL_LABEL, value, raw);
	if (addresses.length > 1) {
		throw parameterError(
			context,
			itemIndex,
			URL_LABEL,
			`${addresses.length} image URLs given; Download takes one per item`,
			'Put a Split Out node on the images field before this node, so that each image is an item of its own, or drag a single image. No request was sent.',
		);
	}
	return addresses[0] ?? '';
}

/** Checked before anything is sent. */
export function readDownload(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldOption: INodeProperties,
) {
	const url = validateParameter(
		context,
		itemIndex,
		URL_LABEL,
		addressSchema,
		oneAddress(context, itemIndex, context.getNodeParameter('url', itemIndex)),
	);
	const options = readOptions(context, itemIndex);
	const field = validateParameter(
		context,
		itemIndex,
		fieldOption.displayName,
		z.string().trim().min(1, 'must name a binary field, such as data'),
		optionOrDefault(options, fieldOption),
	);
	const fileName =
		typeof options.fileName === 'string' ? options.fileName.trim() || undefined : undefined;
	return { url, field, fileName };
}

export async function downloadItem(
	this: IExecuteFunctions,
	itemIndex: number,
	{ url, field, fileName }: DownloadParameters,
): Promise<INodeExecutionData[]> {
	const { binary } = await downloadToBinary(this, itemIndex, url, { fileName });
	return [
		{
			json: {
				url,
				fileName: binary.fileName,
				mimeType: binary.mimeType,
				fileSize: binary.fileSize,
			},
			binary: { [field]: binary },
		},
	];
}
