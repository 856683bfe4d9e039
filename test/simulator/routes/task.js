// @ts-check
'use strict';

const { FAILURE } = require('../tasks');
const { errorReply, envelopeReply, jsonReply } = require('../reply');
const { cdnUrlFor, mainAssetUrl } = require('../assets');

/**
 * @typedef {import('../reply').Context} Context
 * @typedef {import('../tasks').TaskRecord} TaskRecord
 * @typedef {import('../state').SimState} SimState
 */

/**
 * The task as the service reports it at `now`. Image addresses follow the current
 * `downloads` setting, so a test can switch it after the task finished.
 * @param {SimState} state
 * @param {TaskRecord} task
 * @param {number} now
 * @param {string} [callerKey] the key the query was sent with, for `resultImages: 'unreadableWithKey'`
 * @returns {Record<string, unknown>}
 */
function taskView(state, task, now, callerKey) {
	const status = task.statusAt(now);
	/** @type {Record<string, unknown>} */
	const words = /** @type {Record<string, string | undefined>} */ (state.config.statusWords);
	const { config } = state;
	const time = (/** @type {number} */ ms) =>
		config.timesAsNumbers === 'seconds'
			? Math.floor(ms / 1000)
			: config.timesAsNumbers === 'milliseconds'
				? ms
				: new Date(ms).toISOString();
	const view = {
		task_id: task.task_id,
		status: words[status] ?? status,
		created_at: time(task.createdAt),
	};
	if (status === 'succeeded') {
		const completedAt = /** @type {number} */ (task.completedAt);
		const expiresAt = time(completedAt + config.expireAfterMs);
		if (!config.omitCompletedAt) view.completed_at = time(completedAt);
		const images = [];
		for (let i = 0; i < task.imagesPerTask; i++) {
			const assetId = task.assetId(i);
			const absolute =
				config.downloads === 'cdn' ? cdnUrlFor(state, assetId) : mainAssetUrl(state, assetId);
			// A path on the service: the address without its origin.
			const url =
				config.resultAddresses === 'relative'
					? new URL(absolute).pathname
					: config.resultAddresses === 'protocolRelative'
						? absolute.replace(/^https?:/, '')
						: absolute;
			if (config.resultImages === 'strings') images.push(url);
			else if (config.resultImages === 'unreadable' || config.resultImages === 'unreadableWithKey')
				images.push({
					asset_id: assetId,
					storage_key: `internal/${assetId}`,
					...(config.resultImages === 'unreadableWithKey' ? { access_token: callerKey } : {}),
					expires_at: expiresAt,
				});
			else
				images.push({ asset_id: assetId, [config.resultAddressKey]: url, expires_at: expiresAt });
		}
		if (config.resultPlacement === 'resultIsList') view.result = images;
		else if (config.resultPlacement === 'imagesOnTask') view.images = images;
		else view.result = { images: config.resultPlacement === 'singleImage' ? images[0] : images };
	}
	if (status === 'failed') view.error = { ...FAILURE };
	else view.error = state.config.emptyErrorObject ? { code: null, message: '' } : null;
	if (config.statusField !== 'status') {
		const { status: word, ...rest } = view;
		return config.statusField === 'none' ? rest : { ...rest, [config.statusField]: word };
	}
	return view;
}

/**
 * GET /v1/open/tasks/<task_id>
 * @param {Context} ctx
 */
function task(ctx) {
	const record = ctx.state.tasks.get(ctx.param);
	if (!record) return errorReply(ctx, 404, 'Task not found');
	record.queries += 1;
	const callerKey = String(ctx.req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
	const view = taskView(ctx.state, record, Date.now(), callerKey);
	if (ctx.state.config.resultPlacement === 'besideData' && view.result !== undefined) {
		const { result, ...data } = view;
		return jsonReply(200, { code: 200, data, result, request_id: ctx.reqId });
	}
	return envelopeReply(ctx, 200, view);
}

module.exports = { task, taskView };
