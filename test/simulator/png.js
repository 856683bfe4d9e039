// @ts-check
'use strict';

const zlib = require('node:zlib');
const crypto = require('node:crypto');

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BIT_DEPTH = 8;
const COLOUR_TYPE_RGB = 2;
const FILTER_NONE = 0;

// zlib.crc32 only exists from Node 20.15/22.2, so the table is built here.
const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

/** @param {Buffer} buf */
function crc32(buf) {
	let c = 0xffffffff;
	for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
	return (c ^ 0xffffffff) >>> 0;
}

/**
 * @param {string} type four ASCII letters
 * @param {Buffer} data
 */
function chunk(type, data) {
	const len = Buffer.alloc(4);
	len.writeUInt32BE(data.length, 0);
	const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(typeAndData), 0);
	return Buffer.concat([len, typeAndData, crc]);
}

/**
 * Truecolour 8-bit PNG from packed RGB pixels.
 * @param {number} width
 * @param {number} height
 * @param {Uint8Array} rgb width*height*3 bytes, row-major
 * @returns {Buffer}
 */
function encodePng(width, height, rgb) {
	if (rgb.length !== width * height * 3)
		throw new RangeError('rgb length does not match width*height*3');
	const stride = width * 3;
	const raw = Buffer.alloc((stride + 1) * height);
	for (let y = 0; y < height; y++) {
		// Filter type None on every line: the pictures are simple and size does not matter here.
		raw[y * (stride + 1)] = FILTER_NONE;
		raw.set(rgb.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
	}
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(width, 0);
	ihdr.writeUInt32BE(height, 4);
	ihdr[8] = BIT_DEPTH;
	ihdr[9] = COLOUR_TYPE_RGB;
	// Bytes 10..12 stay 0: the only compression and filter methods PNG defines, and no interlace.
	return Buffer.concat([
		SIGNATURE,
		chunk('IHDR', ihdr),
		chunk('IDAT', zlib.deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/**
 * A picture that differs per seed: a coloured background with a contrasting block whose
 * place also depends on the seed, so two results of one task never share bytes.
 * @param {string} seed
 * @param {number} width
 * @param {number} height
 * @returns {Buffer}
 */
function renderImage(seed, width, height) {
	const h = crypto.createHash('sha256').update(seed).digest();
	const bg = [h[0], h[1], h[2]];
	const fg = [255 - h[0], 255 - h[1], 255 - h[2]];
	const bw = Math.max(1, Math.floor(width / 3));
	const bh = Math.max(1, Math.floor(height / 3));
	const bx = Math.floor((h[3] / 255) * (width - bw));
	const by = Math.floor((h[4] / 255) * (height - bh));
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const inBlock = x >= bx && x < bx + bw && y >= by && y < by + bh;
			const c = inBlock ? fg : bg;
			// A gentle vertical shade keeps the image from being a flat fill.
			const shade = Math.floor((y / Math.max(1, height - 1)) * 24);
			const o = (y * width + x) * 3;
			rgb[o] = Math.max(0, c[0] - shade);
			rgb[o + 1] = Math.max(0, c[1] - shade);
			rgb[o + 2] = Math.max(0, c[2] - shade);
		}
	}
	return encodePng(width, height, rgb);
}

/**
 * Reads the header of a PNG, verifying signature and chunk CRCs, so callers can assert
 * that what they downloaded is a whole, valid image.
 * @param {Uint8Array} bytes
 * @returns {{width: number, height: number, bitDepth: number, colorType: number, chunks: string[], pixels: Buffer}}
 */
function readPngInfo(bytes) {
	const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	if (buf.length < 8 || !buf.subarray(0, 8).equals(SIGNATURE))
		throw new Error('not a PNG: bad signature');
	let off = 8;
	/** @type {string[]} */
	const chunks = [];
	/** @type {Buffer[]} */
	const idat = [];
	let width = 0;
	let height = 0;
	let bitDepth = 0;
	let colorType = 0;
	while (off < buf.length) {
		if (off + 12 > buf.length) throw new Error('PNG truncated inside a chunk header');
		const len = buf.readUInt32BE(off);
		const type = buf.toString('ascii', off + 4, off + 8);
		if (off + 12 + len > buf.length) throw new Error(`PNG truncated inside chunk ${type}`);
		const data = buf.subarray(off + 8, off + 8 + len);
		const crc = buf.readUInt32BE(off + 8 + len);
		if (crc32(buf.subarray(off + 4, off + 8 + len)) !== crc)
			throw new Error(`PNG chunk ${type} has a bad CRC`);
		chunks.push(type);
		if (type === 'IHDR') {
			width = data.readUInt32BE(0);
			height = data.readUInt32BE(4);
			bitDepth = data[8];
			colorType = data[9];
		} else if (type === 'IDAT') {
			idat.push(data);
		}
		off += 12 + len;
		if (type === 'IEND') break;
	}
	if (chunks[0] !== 'IHDR' || chunks[chunks.length - 1] !== 'IEND')
		throw new Error('PNG lacks IHDR or IEND');
	const pixels = zlib.inflateSync(Buffer.concat(idat));
	return { width, height, bitDepth, colorType, chunks, pixels };
}

module.exports = { encodePng, renderImage, readPngInfo };
