// @ts-check
'use strict';

const crypto = require('node:crypto');
const { renderImage } = require('./png');
const { FORMATS } = require('./formats');

/**
 * @typedef {import('./state').SimState} SimState
 *
 * @typedef {{kind: 'ok', contentType: string, bytes: Buffer}
 *   | {kind: 'missing'}
 *   | {kind: 'expired'}} AssetLookup
 */

const RESULT_ID = /^generated\/open-result\/(task_[0-9a-f]+)-(\d+)\.png$/;
const CDN_BUCKET = 'product-image-results';

/**
 * Both uploads and results live in one store, addressed by asset id.
 * @param {SimState} state
 * @param {string} assetId
 * @param {number} now
 * @returns {AssetLookup}
 */
function lookupAsset(state, assetId, now) {
	const expireAfterMs = state.config.expireAfterMs;
	const upload = state.uploads.get(assetId);
	if (upload) {
		if (now >= upload.createdAt + expireAfterMs) return { kind: 'expired' };
		return { kind: 'ok', contentType: upload.contentType, bytes: upload.bytes };
	}
	const m = RESULT_ID.exec(assetId);
	if (!m) return { kind: 'missing' };
	const task = state.tasks.get(m[1]);
	const index = Number(m[2]);
	if (!task || task.statusAt(now) !== 'succeeded' || index >= task.imagesPerTask)
		return { kind: 'missing' };
	if (now >= /** @type {number} */ (task.completedAt) + expireAfterMs) return { kind: 'expired' };
	const format = FORMATS[state.config.imageFormat];
	const cacheKey = `${state.config.imageFormat}:${assetId}`;
	let bytes = state.imageCache.get(cacheKey);
	if (!bytes) {
		const { width, height } = task.imageSize();
		bytes = format ? format.encode(width, height) : renderImage(assetId, width, height);
		state.imageCache.set(cacheKey, bytes);
	}
	return { kind: 'ok', contentType: format ? format.contentType : 'image/png', bytes };
}

/**
 * @param {SimState} state
 * @param {string} assetId
 */
function sign(state, assetId) {
	return crypto.createHmac('sha256', state.signingKey).update(assetId).digest('hex');
}

/**
 * A pre-signed looking address on the second origin; the signature sits in the query, so
 * a client that rewrites or drops the query string fails as it would against object storage.
 * @param {SimState} state
 * @param {string} assetId
 */
function cdnUrlFor(state, assetId) {
	const key = assetId.split('/').map(encodeURIComponent).join('/');
	const expires = Math.max(1, Math.round(state.config.expireAfterMs / 1000));
	return `${state.cdnUrl}/${CDN_BUCKET}/${key}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=${expires}&X-Amz-Signature=${sign(state, assetId)}`;
}

/**
 * @param {string} pathname
 * @returns {string | undefined} the asset id addressed on the cdn origin
 */
function cdnAssetId(pathname) {
	const prefix = `/${CDN_BUCKET}/`;
	if (!pathname.startsWith(prefix)) return undefined;
	try {
		return decodeURIComponent(pathname.slice(prefix.length));
	} catch {
		return undefined;
	}
}

/**
 * @param {SimState} state
 * @param {string} assetId
 * @param {string | null} signature
 */
function verifySignature(state, assetId, signature) {
	if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return false;
	return crypto.timingSafeEqual(
		Buffer.from(signature, 'hex'),
		Buffer.from(sign(state, assetId), 'hex'),
	);
}

/**
 * @param {SimState} state
 * @param {string} assetId
 */
function mainAssetUrl(state, assetId) {
	return `${state.baseUrl}/v1/open/assets/${encodeURIComponent(assetId)}`;
}

module.exports = { lookupAsset, cdnUrlFor, cdnAssetId, verifySignature, mainAssetUrl };
