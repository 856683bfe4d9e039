import type { IBinaryData, IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { downloadStream } from '../transport';
import type { PixelSize } from './imageDimensions';
import { storedPixelSize } from './imageDimensions';

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
		purpose: 'download',
		url: address,
		itemIndex,
		deadline: options.deadline,
		errorContext: { url: address, ...options.errorContext },
		consume: async (stream, info) => {
			const named = options.fileName ?? fileNameFromAddress(info.finalUrl) ?? 'image';
			const mimeType = chooseMimeType(info.mimeType, named);
			// A name made by the node has no extension yet: the one of the type received makes it open.
			const fileName = measure ? withExtension(named, mimeType) : named;
			if (!measure) {
				return {
					binary: await context.helpers.prepareBinaryData(
						stream as BinarySource,
						fileName,
						mimeType,
					),
				};
			}
			const binary = await context.helpers.prepareBinaryData(
				stream as BinarySource,
				fileName,
				mimeType,
			);
			return { binary, pixelSize: await storedPixelSize(context, binary) };
		},
	})) as { binary: IBinaryData; pixelSize?: PixelSize };
}
