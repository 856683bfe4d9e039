// @ts-check
'use strict';

// Result images in formats other than PNG, for a service or a CDN that stores JPEG, WebP, GIF or
// AVIF. Each is a flat fill at the requested size, written by the smallest encoder each format
// allows; only the PNG of png.js carries the placeholder's picture.

/**
 * @param {number[]} bytes
 * @returns {Buffer}
 */
const buf = (bytes) => Buffer.from(bytes);

/** @param {number} n */
const u16be = (n) => [(n >> 8) & 0xff, n & 0xff];
/** @param {number} n */
const u16le = (n) => [n & 0xff, (n >> 8) & 0xff];
/** @param {number} n */
const u32be = (n) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
/** @param {number} n */
const u32le = (n) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

/**
 * Baseline greyscale JPEG, mid-grey: Huffman tables of one code each (DC difference 0, end of
 * block), so every 8×8 block is two zero bits.
 * @param {number} width
 * @param {number} height
 */
function encodeJpeg(width, height) {
	const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
	const bits = blocks * 2;
	const scan = Buffer.alloc(Math.ceil(bits / 8));
	// Padding after the last block is 1 bits, as the format asks.
	const used = bits % 8;
	if (used) scan[scan.length - 1] = 0xff >> used;
	const segment = (/** @type {number} */ marker, /** @type {number[]} */ body) => [
		0xff,
		marker,
		...u16be(body.length + 2),
		...body,
	];
	const oneCodeTable = (/** @type {number} */ classAndId) => [
		classAndId,
		1,
		...new Array(15).fill(0),
		0x00,
	];
	return buf([
		0xff,
		0xd8,
		...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
		...segment(0xc0, [8, ...u16be(height), ...u16be(width), 1, 1, 0x11, 0]),
		...segment(0xc4, oneCodeTable(0x00)),
		...segment(0xc4, oneCodeTable(0x10)),
		...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
		...scan,
		0xff,
		0xd9,
	]);
}

/**
 * Lossless WebP (VP8L) of one colour: five prefix codes of a single symbol each, so the pixels
 * take no bits at all.
 * @param {number} width
 * @param {number} height
 */
function encodeWebp(width, height) {
	/** @type {number[]} */
	const out = [0x2f];
	let acc = 0;
	let count = 0;
	const put = (/** @type {number} */ value, /** @type {number} */ n) => {
		for (let i = 0; i < n; i++) {
			acc |= ((value >> i) & 1) << count;
			if (++count === 8) {
				out.push(acc);
				acc = 0;
				count = 0;
			}
		}
	};
	put(width - 1, 14);
	put(height - 1, 14);
	put(0, 1); // no alpha used
	put(0, 3); // version 0
	put(0, 1); // no transform
	put(0, 1); // no colour cache
	put(0, 1); // no meta prefix codes
	// green, red, blue, alpha, distance: a simple code of one 8-bit symbol each
	for (const symbol of [96, 64, 160, 255, 0]) {
		put(1, 1);
		put(0, 1);
		put(1, 1);
		put(symbol, 8);
	}
	if (count) out.push(acc);
	const data = out.length % 2 ? [...out, 0] : out;
	const chunk = [...Buffer.from('VP8L'), ...u32le(out.length), ...data];
	return buf([
		...Buffer.from('RIFF'),
		...u32le(4 + chunk.length),
		...Buffer.from('WEBP'),
		...chunk,
	]);
}

/**
 * GIF89a of one colour: a two-entry palette and an LZW stream that restarts often enough for
 * every code to stay 3 bits wide.
 * @param {number} width
 * @param {number} height
 */
function encodeGif(width, height) {
	/** @type {number[]} */
	const codes = [];
	const pixels = width * height;
	// Code size 2: clear 4, end 5, first free code 6; after 2 literals a clear keeps codes at 3 bits.
	for (let i = 0; i < pixels; i++) {
		if (i % 2 === 0) codes.push(4);
		codes.push(0);
	}
	codes.push(5);
	/** @type {number[]} */
	const stream = [];
	let acc = 0;
	let count = 0;
	for (const code of codes) {
		acc |= code << count;
		count += 3;
		while (count >= 8) {
			stream.push(acc & 0xff);
			acc >>= 8;
			count -= 8;
		}
	}
	if (count) stream.push(acc & 0xff);
	/** @type {number[]} */
	const blocks = [];
	for (let i = 0; i < stream.length; i += 255) {
		const part = stream.slice(i, i + 255);
		blocks.push(part.length, ...part);
	}
	return buf([
		...Buffer.from('GIF89a'),
		...u16le(width),
		...u16le(height),
		0x80,
		0,
		0,
		...[40, 120, 200, 255, 255, 255],
		0x2c,
		...u16le(0),
		...u16le(0),
		...u16le(width),
		...u16le(height),
		0,
		2,
		...blocks,
		0,
		0x3b,
	]);
}

/**
 * @param {string} type
 * @param {number[]} body
 */
const box = (type, body) => [...u32be(body.length + 8), ...Buffer.from(type), ...body];

/**
 * The AVIF container (ISO BMFF `ftyp` avif, `meta` with the image's spatial extents) with the
 * size a reader takes from it. No AV1 encoder is at hand, so its picture payload is a stand-in:
 * enough for what reads the type and size, not for a decoder.
 * @param {number} width
 * @param {number} height
 */
function encodeAvif(width, height) {
	const ftyp = box('ftyp', [...Buffer.from('avif'), ...u32be(0), ...Buffer.from('avifmif1miaf')]);
	const ispe = box('ispe', [...u32be(0), ...u32be(width), ...u32be(height)]);
	const meta = box('meta', [
		...u32be(0),
		...box('hdlr', [...u32be(0), ...u32be(0), ...Buffer.from('pict'), ...new Array(13).fill(0)]),
		...box('iprp', box('ipco', ispe)),
	]);
	return buf([...ftyp, ...meta, ...box('mdat', [0x12, 0, 0x0a, 0x0a])]);
}

/** @type {Record<string, {contentType: string, encode: (w: number, h: number) => Buffer}>} */
const FORMATS = {
	jpeg: { contentType: 'image/jpeg', encode: encodeJpeg },
	webp: { contentType: 'image/webp', encode: encodeWebp },
	gif: { contentType: 'image/gif', encode: encodeGif },
	avif: { contentType: 'image/avif', encode: encodeAvif },
};

module.exports = { FORMATS };
