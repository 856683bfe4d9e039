// @ts-check
'use strict';

const crypto = require('node:crypto');
const { DEFAULT_CONFIG } = require('./config');
const { FaultQueue } = require('./faults');

/**
 * @typedef {import('./config').SimulatorConfig} SimulatorConfig
 * @typedef {import('./tasks').TaskRecord} TaskRecord
 *
 * @typedef {'upload' | 'submit' | 'task' | 'asset' | 'media' | 'analysis' | 'plan' | 'cdn' | 'unknown'} Route
 *
 * @typedef {object} RequestRecord
 * @property {'main' | 'cdn'} origin
 * @property {string} method
 * @property {string} path
 * @property {Route} route
 * @property {number} status 0 until a status line is sent, and stays 0 when the connection is cut first
 * @property {string | undefined} authorization the raw header value
 * @property {string | undefined} accept the raw Accept header value
 * @property {number} at epoch ms of arrival
 * @property {string} [requestIdHeader] the X-Request-Id header a client sent, if any
 * @property {unknown} [imageUrls] the `image_urls` of a JSON body (submit, analysis, plan), as received
 * @property {unknown} [productDescription] a plan's `product_description` as received
 * @property {Record<string, unknown>} [planTarget] a plan's `platform`, `market` and `language`
 *   as received: only those its body holds
 *
 * @typedef {object} Stats
 * @property {RequestRecord[]} requests
 * @property {number} submitsAccepted
 * @property {number} cdnAuthRejected
 * @property {Record<string, number>} byRoute
 *
 * @typedef {object} UploadRecord
 * @property {string} id
 * @property {string} contentType
 * @property {string | undefined} filename
 * @property {Buffer} bytes
 * @property {number} createdAt epoch ms
 *
 * @typedef {object} SimState
 * @property {string} apiKey
 * @property {string} baseUrl
 * @property {string} cdnUrl
 * @property {SimulatorConfig} config
 * @property {SimulatorConfig} startConfig
 * @property {FaultQueue} faults
 * @property {Map<string, TaskRecord>} tasks
 * @property {Map<string, UploadRecord>} uploads
 * @property {Stats} stats
 * @property {Map<string, Buffer>} imageCache
 * @property {Buffer} signingKey
 * @property {Set<NodeJS.Timeout>} timers
 * @property {boolean} closed
 * @property {((record: RequestRecord) => void) | undefined} onRequest
 */

/**
 * @param {string} apiKey
 * @param {Partial<SimulatorConfig>} initialConfig already validated
 * @returns {SimState}
 */
function createState(apiKey, initialConfig) {
	const startConfig = { ...DEFAULT_CONFIG, ...initialConfig };
	return {
		apiKey,
		baseUrl: '',
		cdnUrl: '',
		config: { ...startConfig },
		startConfig,
		faults: new FaultQueue(),
		tasks: new Map(),
		uploads: new Map(),
		stats: { requests: [], submitsAccepted: 0, cdnAuthRejected: 0, byRoute: {} },
		imageCache: new Map(),
		signingKey: crypto.randomBytes(32),
		timers: new Set(),
		closed: false,
		onRequest: undefined,
	};
}

/**
 * Clears in place: tests may hold references to `stats`, its arrays and the maps.
 * @param {SimState} state
 */
function resetState(state) {
	for (const key of Object.keys(state.config))
		delete state.config[/** @type {keyof SimulatorConfig} */ (key)];
	Object.assign(state.config, state.startConfig);
	state.faults.clear();
	state.tasks.clear();
	state.uploads.clear();
	state.imageCache.clear();
	state.stats.requests.length = 0;
	state.stats.submitsAccepted = 0;
	state.stats.cdnAuthRejected = 0;
	for (const key of Object.keys(state.stats.byRoute)) delete state.stats.byRoute[key];
}

module.exports = { createState, resetState };
