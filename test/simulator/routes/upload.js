// @ts-check
'use strict';

const path = require('node:path');
const { boundaryOf, parseMultipart } = require('../multipart');
const { uuid } = require('../ids');
const { errorReply, envelopeReply } = require('../reply');

/** @typedef {import('../reply').Context} Context */

/** @type {Record<string, string>} */
const EXTENSIONS = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/jpg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'image/bmp': 'bmp',
	'image/tiff': 'tiff',
	'image/avif': 'avif',
	'image/heic': 'heic',
	'image/svg+xml': 'svg',
};

/**
 * @param {string} contentType
 * @param {string | undefined} filename
 */
function extensionFor(contentType, filename) {
	if (EXTENSIONS[contentType]) return EXTENSIONS[contentType];
	const fromName = filename ? path.extname(filename).slice(1).toLowerCase() : '';
	if (/^[a-z0-9]{1,8}$/.test(fromName)) return fromName;
	return contentType.split('/')[1].replace(/[^a-z0-9]/g, '') || 'bin';
}

/**
 * POST /v1/open/uploads/images
 * @param {Context} ctx
 */
function upload(ctx) {
	const { state } = ctx;
	const max = state.config.maxUploadBytes;
	if (ctx.bodyTruncated)
		return errorReply(ctx, 413, `File too large: the upload limit is ${max} bytes`);

	const boundary = boundaryOf(ctx.req.headers['content-type']);
	if (!boundary)
		return errorReply(
			ctx,
			400,
			"Expected a multipart/form-data body with a file part named 'file'",
		);
	let parts;
	try {
		parts = parseMultipart(ctx.body, boundary);
	} catch (err) {
		return errorReply(ctx, 400, `Malformed multipart body: ${/** @type {Error} */ (err).message}`);
	}
	const part = parts.find((p) => p.name === 'file');
	if (!part) return errorReply(ctx, 400, "Missing file part 'file'");
	if (part.data.length > max)
		return errorReply(ctx, 413, `File too large: the upload limit is ${max} bytes`);

	const contentType = (part.contentType || '').split(';')[0].trim().toLowerCase();
	if (!/^image\/[a-z0-9.+-]+$/.test(contentType)) {
		return errorReply(
			ctx,
			415,
			`Unsupported file type '${contentType || 'none'}': upload an image (image/*)`,
		);
	}
	if (part.data.length === 0) return errorReply(ctx, 400, "The file part 'file' is empty");

	const now = Date.now();
	const id = `generated/open-upload/${uuid()}.${extensionFor(contentType, part.filename)}`;
	// Copied out: the part is a view into the whole request body.
	state.uploads.set(id, {
		id,
		contentType,
		filename: part.filename,
		bytes: Buffer.from(part.data),
		createdAt: now,
	});
	return envelopeReply(ctx, 201, {
		id,
		url: `${state.baseUrl}/v1/open/media/${encodeURIComponent(id)}`,
		expiresAt: new Date(now + state.config.expireAfterMs).toISOString(),
	});
}

module.exports = { upload };
