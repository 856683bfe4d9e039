// @ts-check
'use strict';

/**
 * @typedef {import('./config').SimulatorConfig} SimulatorConfig
 * @typedef {import('./config').TaskOutcome} TaskOutcome
 */

/**
 * A share in [0, 1) that looks random across submit orders but is the same on every run, so a
 * scenario with varied task durations can be repeated (Knuth's multiplicative hash).
 * @param {number} order
 */
function spreadShare(order) {
	return (((order + 1) * 2654435761) % 4294967296) / 4294967296;
}

const RESOLUTION_SCALE = /** @type {Record<string, number>} */ ({ '1k': 1, '2k': 2, '4k': 4 });

const FAILURE = Object.freeze({
	code: 'generation_failed',
	message: 'The model could not render the product (simulated failure)',
});

/**
 * A generation task. Its status is derived from the clock rather than advanced by
 * timers, so nothing is left running when the simulator closes.
 */
class TaskRecord {
	/**
	 * @param {string} taskId
	 * @param {Record<string, unknown>} body the submitted JSON, kept as received
	 * @param {SimulatorConfig} config settings at submit time; later changes do not alter a task in flight
	 * @param {number} now
	 * @param {number} [order] how many tasks were accepted before this one
	 */
	constructor(taskId, body, config, now, order = 0) {
		this.task_id = taskId;
		this.body = body;
		this.createdAt = now;
		this.durationMs = config.taskDurationsMs.length
			? config.taskDurationsMs[order % config.taskDurationsMs.length]
			: config.taskDurationMs + Math.round(config.taskDurationSpreadMs * spreadShare(order));
		/** @type {TaskOutcome} */
		this.outcome = config.taskOutcomes.length
			? config.taskOutcomes[order % config.taskOutcomes.length]
			: config.taskOutcome;
		this.imagesPerTask = config.imagesPerTask;
		this.imageLongSide = config.imageLongSide;
		/** number of task queries answered for this task */
		this.queries = 0;
	}

	/** @param {number} now */
	statusAt(now) {
		const elapsed = now - this.createdAt;
		if (this.outcome !== 'never' && elapsed >= this.durationMs)
			return this.outcome === 'fail' ? 'failed' : 'succeeded';
		if (elapsed < this.durationMs / 3) return 'submitted';
		if (elapsed < (2 * this.durationMs) / 3) return 'queued';
		return 'processing';
	}

	get status() {
		return this.statusAt(Date.now());
	}

	/** @returns {number | undefined} epoch ms, once finished */
	get completedAt() {
		return this.outcome === 'never' ? undefined : this.createdAt + this.durationMs;
	}

	/**
	 * A task held open (outcome `never`) succeeds now.
	 * @param {number} now
	 */
	release(now) {
		if (this.outcome !== 'never') return;
		this.outcome = 'succeed';
		this.durationMs = now - this.createdAt;
	}

	/** @returns {{width: number, height: number}} */
	imageSize() {
		const size = typeof this.body.size === 'string' ? this.body.size : '1:1';
		const resolution = typeof this.body.resolution === 'string' ? this.body.resolution : '1k';
		const m = /^(\d+):(\d+)$/.exec(size);
		const w = m ? Number(m[1]) || 1 : 1;
		const h = m ? Number(m[2]) || 1 : 1;
		const long = this.imageLongSide * (RESOLUTION_SCALE[resolution] || 1);
		const short = Math.max(1, Math.round((long * Math.min(w, h)) / Math.max(w, h)));
		return w >= h ? { width: long, height: short } : { width: short, height: long };
	}

	/** @param {number} index */
	assetId(index) {
		return `generated/open-result/${this.task_id}-${index}.png`;
	}
}

module.exports = { TaskRecord, FAILURE, RESOLUTION_SCALE };
