// @ts-check
'use strict';

const http = require('node:http');
const { validateConfigPatch, DEFAULT_CONFIG } = require('./config');
const { createState, resetState } = require('./state');
const { handle } = require('./pipeline');
const { readPngInfo } = require('./png');

/**
 * @typedef {import('./config').SimulatorConfig} SimulatorConfig
 * @typedef {import('./faults').Fault} Fault
 * @typedef {import('./state').Stats} Stats
 * @typedef {import('./state').RequestRecord} RequestRecord
 * @typedef {import('./state').UploadRecord} UploadRecord
 * @typedef {import('./tasks').TaskRecord} TaskRecord
 *
 * @typedef {Partial<SimulatorConfig> & {
 *   apiKey?: string,
 *   port?: number,
 *   cdnPort?: number,
 *   onRequest?: (record: RequestRecord) => void,
 * }} SimulatorOptions
 *
 * @typedef {object} Simulator
 * @property {string} baseUrl
 * @property {string} cdnUrl
 * @property {string} apiKey
 * @property {(partial: Partial<SimulatorConfig>) => SimulatorConfig} configure
 * @property {(fault: Fault) => void} addFault
 * @property {() => void} reset
 * @property {Stats} stats
 * @property {Map<string, TaskRecord>} tasks
 * @property {Map<string, UploadRecord>} uploads
 * @property {Readonly<SimulatorConfig>} config
 * @property {() => Promise<void>} close
 */

const DEFAULT_API_KEY = 'sim-key-0123456789';

/**
 * @param {http.Server} server
 * @param {number} port
 * @returns {Promise<number>}
 */
function listen(server, port) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve(/** @type {import('node:net').AddressInfo} */ (server.address()).port);
		});
	});
}

/**
 * @param {http.Server} server
 * @returns {Promise<void>}
 */
function shut(server) {
	return new Promise((resolve) => {
		if (!server.listening) {
			server.closeAllConnections();
			resolve();
			return;
		}
		server.close(() => resolve());
		// Keep-alive sockets held by a test's HTTP client would otherwise keep the process up.
		server.closeAllConnections();
	});
}

/**
 * Starts the service simulator: the main origin plus a second origin standing in for a
 * storage CDN.
 * @param {SimulatorOptions} [options]
 * @returns {Promise<Simulator>}
 */
async function startSimulator(options = {}) {
	const { apiKey = DEFAULT_API_KEY, port = 0, cdnPort = 0, onRequest, ...initialConfig } = options;
	if (typeof apiKey !== 'string' || apiKey === '' || /\s/.test(apiKey))
		throw new TypeError('apiKey must be a non-empty string without spaces');
	const state = createState(apiKey, validateConfigPatch(initialConfig));
	state.onRequest = onRequest;

	/** @param {'main' | 'cdn'} origin */
	const handler = (origin) =>
		/** @type {http.RequestListener} */ (
			(req, res) => {
				handle(state, origin, req, res).catch((err) => {
					if (!res.headersSent) {
						const body = JSON.stringify({
							code: 500,
							message: `Simulator error: ${err && err.message}`,
						});
						res.writeHead(500, {
							'content-type': 'application/json',
							'content-length': String(Buffer.byteLength(body)),
						});
						res.end(body);
					} else {
						res.destroy();
					}
				});
			}
		);
	const mainServer = http.createServer(handler('main'));
	const cdnServer = http.createServer(handler('cdn'));

	const mainPort = await listen(mainServer, port);
	let cdnListenPort;
	try {
		cdnListenPort = await listen(cdnServer, cdnPort);
	} catch (err) {
		await shut(mainServer);
		throw err;
	}
	state.baseUrl = `http://127.0.0.1:${mainPort}`;
	state.cdnUrl = `http://127.0.0.1:${cdnListenPort}`;

	/** @type {Promise<void> | undefined} */
	let closing;

	/** @type {Simulator} */
	const sim = {
		baseUrl: state.baseUrl,
		cdnUrl: state.cdnUrl,
		apiKey,
		configure(partial) {
			Object.assign(state.config, validateConfigPatch(partial));
			return { ...state.config };
		},
		addFault(fault) {
			state.faults.add(fault);
		},
		reset() {
			resetState(state);
		},
		get stats() {
			return state.stats;
		},
		get tasks() {
			return state.tasks;
		},
		get uploads() {
			return state.uploads;
		},
		get heldReplies() {
			return state.timers.size;
		},
		get config() {
			return Object.freeze({ ...state.config });
		},
		close() {
			if (!closing) {
				state.closed = true;
				for (const timer of state.timers) clearTimeout(timer);
				state.timers.clear();
				closing = Promise.all([shut(mainServer), shut(cdnServer)]).then(() => undefined);
			}
			return closing;
		},
	};
	return sim;
}

module.exports = { startSimulator, DEFAULT_CONFIG, readPngInfo };
