// @ts-check
'use strict';

const { lookupAsset, cdnAssetId, verifySignature } = require('../assets');
const { xmlError } = require('../errors');

/**
 * @typedef {import('../reply').Context} Context
 * @typedef {import('../reply').Reply} Reply
 */

/**
 * @param {number} status
 * @param {string} code
 * @param {string} message
 * @returns {Reply}
 */
const xml = (status, code, message) => ({
	status,
	headers: { 'content-type': 'application/xml' },
	body: Buffer.from(xmlError(code, message), 'utf8'),
});

/**
 * Any request on the second origin: it behaves like object storage behind pre-signed
 * addresses, which refuses a request that also carries an Authorization header.
 * @param {Context} ctx
 * @returns {Reply}
 */
function cdn(ctx) {
	if (ctx.req.headers.authorization !== undefined) {
		ctx.state.stats.cdnAuthRejected += 1;
		return xml(400, 'InvalidArgument', 'Only one auth mechanism allowed');
	}
	if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD')
		return xml(
			405,
			'MethodNotAllowed',
			'The specified method is not allowed against this resource.',
		);
	const assetId = cdnAssetId(ctx.pathname);
	if (!assetId) return xml(404, 'NoSuchKey', 'The specified key does not exist.');
	if (!verifySignature(ctx.state, assetId, ctx.query.get('X-Amz-Signature'))) {
		return xml(
			403,
			'SignatureDoesNotMatch',
			'The request signature we calculated does not match the signature you provided.',
		);
	}
	const found = lookupAsset(ctx.state, assetId, Date.now());
	if (found.kind === 'missing') return xml(404, 'NoSuchKey', 'The specified key does not exist.');
	if (found.kind === 'expired')
		return xml(410, 'AccessDenied', 'Request has expired: the address is no longer valid');
	return { status: 200, headers: { 'content-type': found.contentType }, body: found.bytes };
}

module.exports = { cdn };
