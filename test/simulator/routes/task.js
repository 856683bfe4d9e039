// @ts-check
'use strict';

const { FAILURE } = require('../tasks');
const { errorReply, envelopeReply } = require('../reply');
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
 * @returns {Record<string, unknown>}
 */
function taskView(state, task, now) {
	const status = task.statusAt(now);
	/** @type {Record<string, unknown>} */
	const words = /** @type {Record<string, string | undefined>} */ (state.config.statusWords);
	const view = {
		task_id: task.task_id,
		status: words[status] ?? status,
		created_at: new Date(task.createdAt).toISOString(),
	};
	if (status === 'succeeded') {
		const completedAt = /** @type {number} */ (task.completedAt);
		const expiresAt = new Date(completedAt + state.config.expireAfterMs).toISOString();
		if (!state.config.omitCompletedAt) view.completed_at = new Date(completedAt).toISOString();
		const images = [];
		for (let i = 0; i < task.imagesPerTask; i++) {
			const assetId = task.assetId(i);
			const url =
				state.config.downloads === 'cdn' ? cdnUrlFor(state, assetId) : mainAssetUrl(state, assetId);
			images.push({ asset_id: assetId, url, expires_at: expiresAt });
		}
		view.result = { images };
	}
	if (status === 'failed') view.error = { ...FAILURE };
	else view.error = state.config.emptyErrorObject ? { code: null, message: '' } : null;
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
	return envelopeReply(ctx, 200, taskView(ctx.state, record, Date.now()));
}

module.exports = { task, taskView };
