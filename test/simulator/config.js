// @ts-check
'use strict';

/**
 * @typedef {'succeed' | 'fail' | 'never'} TaskOutcome
 * @typedef {'same' | 'cdn' | 'redirect'} DownloadMode
 * @typedef {'envelope' | 'nested' | 'detail' | 'msg'} ErrorShape
 * @typedef {Partial<Record<'submitted' | 'queued' | 'processing' | 'succeeded' | 'failed', string>>} StatusWords
 *
 * @typedef {object} SimulatorConfig
 * @property {number} taskDurationMs
 * @property {number} taskDurationSpreadMs each task takes taskDurationMs plus a share of this, the same share for the same submit order on every run
 * @property {number[]} taskDurationsMs when not empty, the nth task submitted takes the nth of these (from the start again after the last), instead of taskDurationMs and its spread
 * @property {TaskOutcome} taskOutcome
 * @property {TaskOutcome[]} taskOutcomes when not empty, the nth task submitted ends the nth of these ways (from the start again after the last), instead of taskOutcome
 * @property {number} imagesPerTask
 * @property {number} imageLongSide
 * @property {boolean} resultsInData
 * @property {DownloadMode} downloads
 * @property {boolean} assetsRequireAuth
 * @property {ErrorShape} errorShape
 * @property {number} latencyMs
 * @property {number} maxUploadBytes
 * @property {number} expireAfterMs
 * @property {boolean} emptyErrorObject a task that has not failed reports `error: {code: null, message: ''}` instead of null
 * @property {StatusWords} statusWords the word a task query reports for each state, where a service uses its own (`{succeeded: 'COMPLETED'}`)
 * @property {boolean} omitCompletedAt a finished task reports no `completed_at`
 * @property {'objects' | 'strings' | 'unreadable' | 'unreadableWithKey'} resultImages result images as the spec shows them (objects), as bare address strings, as objects without any address, or as those carrying the key the query was sent with
 * @property {string} resultAddressKey the key an image object holds its address under
 * @property {'absolute' | 'relative' | 'protocolRelative'} resultAddresses complete addresses, paths on the service (`/v1/open/assets/…`), or addresses without their scheme (`//host/…`)
 * @property {'status' | 'state' | 'task_status' | 'none'} statusField the field a task's status is reported in, or none at all
 * @property {'inData' | 'besideData' | 'resultIsList' | 'imagesOnTask' | 'singleImage'} resultPlacement a task's `result` inside `data`, beside it at the top level, a `result` that is the image list itself, the list as `images` on the task, or `result.images` one image without a list
 * @property {false | 'seconds' | 'milliseconds'} timesAsNumbers `created_at`, `completed_at` and `expires_at` as epoch numbers
 * @property {'png' | 'jpeg' | 'webp' | 'gif' | 'avif'} imageFormat the format result images are stored in
 * @property {'both' | 'formattedText' | 'output_text'} analysisText which fields carry the analysis brief
 * @property {boolean} analysisInferred whether the analysis marks one attribute (the material) `inferred`; false: every attribute seen or provided
 * @property {number} submitsPerMinute the service's rate limit: at most this many submits accepted in any 60 s, others answered 429 (0: no limit)
 * @property {number} tasksInFlight the service's limit on unfinished tasks: a submit beyond it is answered 429 (0: no limit)
 * @property {'none' | 'all' | 'task'} outage a proxy in front of the service answers 503 with its own HTML page: to every request, or to task queries only
 */

/** @type {Readonly<SimulatorConfig>} */
const DEFAULT_CONFIG = Object.freeze({
	taskDurationMs: 1500,
	taskDurationSpreadMs: 0,
	taskDurationsMs: [],
	taskOutcome: 'succeed',
	taskOutcomes: [],
	imagesPerTask: 1,
	imageLongSide: 256,
	resultsInData: true,
	downloads: 'same',
	assetsRequireAuth: false,
	errorShape: 'envelope',
	latencyMs: 0,
	maxUploadBytes: 20 * 1024 * 1024,
	expireAfterMs: 3 * 24 * 60 * 60 * 1000,
	emptyErrorObject: false,
	statusWords: Object.freeze({}),
	omitCompletedAt: false,
	resultImages: 'objects',
	resultAddressKey: 'url',
	resultAddresses: 'absolute',
	statusField: 'status',
	resultPlacement: 'inData',
	timesAsNumbers: false,
	imageFormat: 'png',
	analysisText: 'both',
	analysisInferred: true,
	submitsPerMinute: 0,
	tasksInFlight: 0,
	outage: 'none',
});

/**
 * @param {number} min
 * @param {number} max
 * @returns {(v: unknown) => boolean}
 */
const numberIn = (min, max) => (v) =>
	typeof v === 'number' && !Number.isNaN(v) && v >= min && v <= max;
/** @param {unknown[]} allowed */
const oneOf = (allowed) => /** @param {unknown} v */ (v) => allowed.includes(v);
/** @param {unknown} v */
const isBoolean = (v) => typeof v === 'boolean';
const STATES = ['submitted', 'queued', 'processing', 'succeeded', 'failed'];
/** @param {unknown} v */
const isStatusWords = (v) =>
	v !== null &&
	typeof v === 'object' &&
	!Array.isArray(v) &&
	Object.entries(/** @type {Record<string, unknown>} */ (v)).every(
		([state, word]) => STATES.includes(state) && typeof word === 'string' && word !== '',
	);

// Rejecting unknown keys and bad values turns a typo in a test into a loud failure
// instead of a silently ignored setting.
/** @type {Record<keyof SimulatorConfig, {check: (v: unknown) => boolean, expect: string}>} */
const RULES = {
	taskDurationMs: { check: numberIn(0, Number.MAX_SAFE_INTEGER), expect: 'a number >= 0' },
	taskDurationSpreadMs: { check: numberIn(0, Number.MAX_SAFE_INTEGER), expect: 'a number >= 0' },
	taskDurationsMs: {
		check: (v) => Array.isArray(v) && v.every(numberIn(0, Number.MAX_SAFE_INTEGER)),
		expect: 'an array of numbers >= 0',
	},
	taskOutcome: {
		check: oneOf(['succeed', 'fail', 'never']),
		expect: "'succeed', 'fail' or 'never'",
	},
	taskOutcomes: {
		check: (v) => Array.isArray(v) && v.every(oneOf(['succeed', 'fail', 'never'])),
		expect: "an array of 'succeed', 'fail' or 'never'",
	},
	imagesPerTask: {
		check: (v) => Number.isInteger(v) && numberIn(0, 64)(v),
		expect: 'an integer 0..64',
	},
	imageLongSide: {
		check: (v) => Number.isInteger(v) && numberIn(1, 4096)(v),
		expect: 'an integer 1..4096',
	},
	resultsInData: { check: isBoolean, expect: 'a boolean' },
	downloads: { check: oneOf(['same', 'cdn', 'redirect']), expect: "'same', 'cdn' or 'redirect'" },
	assetsRequireAuth: { check: isBoolean, expect: 'a boolean' },
	errorShape: {
		check: oneOf(['envelope', 'nested', 'detail', 'msg']),
		expect: "'envelope', 'nested', 'detail' or 'msg'",
	},
	latencyMs: { check: numberIn(0, Number.MAX_SAFE_INTEGER), expect: 'a number >= 0' },
	maxUploadBytes: { check: numberIn(0, Number.MAX_SAFE_INTEGER), expect: 'a number >= 0' },
	expireAfterMs: { check: numberIn(0, Number.MAX_SAFE_INTEGER), expect: 'a number >= 0' },
	emptyErrorObject: { check: isBoolean, expect: 'a boolean' },
	statusWords: {
		check: isStatusWords,
		expect: `an object mapping ${STATES.join(', ')} to non-empty words`,
	},
	omitCompletedAt: { check: isBoolean, expect: 'a boolean' },
	resultImages: {
		check: oneOf(['objects', 'strings', 'unreadable', 'unreadableWithKey']),
		expect: "'objects', 'strings', 'unreadable' or 'unreadableWithKey'",
	},
	resultAddressKey: {
		check: (v) => typeof v === 'string' && /^[A-Za-z_]+$/.test(v),
		expect: 'a field name such as url, image_url, href or src',
	},
	resultAddresses: {
		check: oneOf(['absolute', 'relative', 'protocolRelative']),
		expect: "'absolute', 'relative' or 'protocolRelative'",
	},
	statusField: {
		check: oneOf(['status', 'state', 'task_status', 'none']),
		expect: "'status', 'state', 'task_status' or 'none'",
	},
	resultPlacement: {
		check: oneOf(['inData', 'besideData', 'resultIsList', 'imagesOnTask', 'singleImage']),
		expect: "'inData', 'besideData', 'resultIsList', 'imagesOnTask' or 'singleImage'",
	},
	timesAsNumbers: {
		check: oneOf([false, 'seconds', 'milliseconds']),
		expect: "false, 'seconds' or 'milliseconds'",
	},
	imageFormat: {
		check: oneOf(['png', 'jpeg', 'webp', 'gif', 'avif']),
		expect: "'png', 'jpeg', 'webp', 'gif' or 'avif'",
	},
	analysisText: {
		check: oneOf(['both', 'formattedText', 'output_text']),
		expect: "'both', 'formattedText' or 'output_text'",
	},
	analysisInferred: { check: isBoolean, expect: 'a boolean' },
	submitsPerMinute: {
		check: (v) => Number.isInteger(v) && numberIn(0, Number.MAX_SAFE_INTEGER)(v),
		expect: 'an integer >= 0 (0: no limit)',
	},
	tasksInFlight: {
		check: (v) => Number.isInteger(v) && numberIn(0, Number.MAX_SAFE_INTEGER)(v),
		expect: 'an integer >= 0 (0: no limit)',
	},
	outage: { check: oneOf(['none', 'all', 'task']), expect: "'none', 'all' or 'task'" },
};

/**
 * @param {unknown} patch
 * @returns {Partial<SimulatorConfig>}
 */
function validateConfigPatch(patch) {
	if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
		throw new TypeError('simulator config must be an object');
	}
	/** @type {Record<string, unknown>} */
	const out = {};
	for (const [key, value] of Object.entries(patch)) {
		if (!Object.prototype.hasOwnProperty.call(RULES, key)) {
			throw new TypeError(
				`unknown simulator config key '${key}' (known: ${Object.keys(RULES).join(', ')})`,
			);
		}
		const rule = RULES[/** @type {keyof SimulatorConfig} */ (key)];
		if (!rule.check(value)) {
			throw new TypeError(
				`simulator config '${key}' must be ${rule.expect}, got ${JSON.stringify(value)}`,
			);
		}
		out[key] = value;
	}
	return /** @type {Partial<SimulatorConfig>} */ (out);
}

module.exports = { DEFAULT_CONFIG, validateConfigPatch };
