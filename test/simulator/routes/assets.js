// @ts-check
'use strict';

const { lookupAsset, cdnUrlFor } = require('../assets');
const { errorReply, bytesReply } = require('../reply');

/** @typedef {import('../reply').Context} Context */

/**
 * @param {Context} ctx
 * @param {boolean} mayRedirect
 */
function serve(ctx, mayRedirect) {
	const found = lookupAsset(ctx.state, ctx.param, Date.now());
	if (found.kind === 'missing') return errorReply(ctx, 404, 'Asset not found');
	if (found.kind === 'expired')
		return errorReply(
			ctx,
			410,
			'The asset address has expired (addresses are valid for a limited time)',
		);
	if (mayRedirect && ctx.state.config.downloads === 'redirect') {
		return {
			status: 302,
			headers: { location: cdnUrlFor(ctx.state, ctx.param) },
			body: Buffer.alloc(0),
		};
	}
	return bytesReply(200, found.contentType, found.bytes);
}

/**
 * GET /v1/open/assets/<asset_id>: result images.
 * @param {Context} ctx
 */
const asset = (ctx) => serve(ctx, true);

/**
 * GET /v1/open/media/<asset_id>: uploaded images.
 * @param {Context} ctx
 */
const media = (ctx) => serve(ctx, false);

module.exports = { asset, media };
