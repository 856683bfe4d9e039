// @ts-check
'use strict';

// Against the real service the simulator's bookkeeping is not there to ask, so a live run checks
// what a user sees: every Product Image node ran, and the last node hands on real images, each
// paired with its input item.

const assert = require('node:assert/strict');
const { lastNodeItems, productImageNodesRan } = require('../lib/checks');

/** @param {Buffer} bytes */
function imageKind(bytes) {
	if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
		return 'png';
	if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpeg';
	if (
		bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
		bytes.subarray(8, 12).toString('latin1') === 'WEBP'
	)
		return 'webp';
	return undefined;
}

/** @type {import('../lib/expectation').Expectation} */
const expectation = (runData, ctx) => {
	productImageNodesRan(runData, ctx);
	const { items } = lastNodeItems(ctx);
	items.forEach((item, i) => {
		assert.ok(item.pairedItem !== undefined, `item ${i} has no pairedItem`);
		const binaries = Object.values(item.binary ?? {});
		assert.ok(binaries.length > 0, `item ${i} carries no binary data`);
		for (const entry of binaries) {
			const { bytes } = ctx.readBinary(entry);
			assert.ok(
				imageKind(bytes),
				`item ${i} holds ${bytes.length} bytes that are not a PNG, JPEG or WebP image`,
			);
			assert.match(String(entry.mimeType), /^image\//);
		}
	});
};

module.exports = expectation;
