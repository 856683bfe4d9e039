// @ts-check
'use strict';

const { taskId } = require('../ids');
const { TaskRecord, RESOLUTION_SCALE } = require('../tasks');
const { errorReply, envelopeReply } = require('../reply');
const { checkUrlList, checkOptionalStrings, parseJsonObject } = require('../validate');
const { rateLimitReply } = require('../limits');

/** @typedef {import('../reply').Context} Context */

/**
 * @param {Record<string, unknown>} body
 * @returns {string | undefined}
 */
function validationError(body) {
	const hasPrompt = typeof body.prompt === 'string' && body.prompt.trim() !== '';
	const hasImages = Array.isArray(body.image_urls) && body.image_urls.length > 0;
	if (!hasPrompt && !hasImages) return 'Either prompt or image_urls is required';
	const notString = checkOptionalStrings(body, ['prompt', 'size', 'resolution', 'output_language']);
	if (notString) return notString;
	if (body.image_urls !== undefined) {
		const urls = checkUrlList(body.image_urls, 'image_urls', 0, Infinity);
		if (urls) return urls;
	}
	if (body.size !== undefined && body.size !== null) {
		const m = /^(\d+):(\d+)$/.exec(/** @type {string} */ (body.size));
		if (!m || Number(m[1]) === 0 || Number(m[2]) === 0)
			return `size must have the form <w>:<h> such as 1:1, got ${JSON.stringify(body.size)}`;
	}
	if (
		body.resolution !== undefined &&
		body.resolution !== null &&
		!Object.hasOwn(RESOLUTION_SCALE, /** @type {string} */ (body.resolution))
	) {
		return `resolution must be one of ${Object.keys(RESOLUTION_SCALE).join(', ')}, got ${JSON.stringify(body.resolution)}`;
	}
	const info = body.product_info;
	if (info !== undefined && info !== null) {
		if (typeof info !== 'object' || Array.isArray(info)) return 'product_info must be an object';
		const bad = checkOptionalStrings(/** @type {Record<string, unknown>} */ (info), [
			'name',
			'sellingPoints',
			'platform',
		]);
		if (bad) return `product_info.${bad}`;
	}
	return undefined;
}

/**
 * POST /v1/open/product-images/generations
 * @param {Context} ctx
 * @param {{commit: boolean}} opts commit false builds the would-be reply without taking the job
 */
function submit(ctx, opts) {
	if (ctx.bodyTruncated) return errorReply(ctx, 413, 'Request body too large');
	const parsed = parseJsonObject(ctx.body);
	if (!parsed.ok) return errorReply(ctx, 400, parsed.message);
	const problem = validationError(parsed.value);
	if (problem) return errorReply(ctx, 400, problem);
	const limited = rateLimitReply(ctx, Date.now());
	if (limited) return limited;

	const id = taskId();
	if (opts.commit) {
		ctx.state.tasks.set(
			id,
			new TaskRecord(
				id,
				parsed.value,
				ctx.state.config,
				Date.now(),
				ctx.state.stats.submitsAccepted,
			),
		);
		ctx.state.stats.submitsAccepted += 1;
	}
	return envelopeReply(ctx, 200, { status: 'submitted', task_id: id });
}

module.exports = { submit };
