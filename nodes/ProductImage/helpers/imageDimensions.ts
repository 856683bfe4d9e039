import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

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
