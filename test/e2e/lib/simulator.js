// @ts-check
'use strict';

const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { REPO_ROOT } = require('./config');
const { startDetached } = require('./proc');
const { addSecret } = require('./redact');
const { cleanEnv } = require('./env');
const { LOADED_MACHINE_MS } = require('./waits');

const CLI = path.join(REPO_ROOT, 'test', 'simulator', 'cli.js');

/**
 * @typedef {{baseUrl: string, cdnUrl?: string, apiKey: string}} SimulatorInfo
 * @typedef {SimulatorInfo & {
 *   stop: () => Promise<void>,
 *   stats: () => Promise<any>,
 *   configure: (config: object) => Promise<any>,
 *   faults: (faults: object) => Promise<any>,
 *   clearFaults: () => Promise<any>,
 *   reset: () => Promise<any>,
 *   tasks: () => Promise<any>,
 *   output: () => string,
 * }} RunningSimulator
 */

/**
 * @param {string} baseUrl
 * @param {'GET' | 'POST'} method
 * @param {string} route
 * @param {object} [body]
 * @returns {Promise<any>}
 */
function admin(baseUrl, method, route, body) {
	const url = new URL(route, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
	const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{
				method,
				headers: payload
					? { 'content-type': 'application/json', 'content-length': payload.length }
					: {},
				timeout: LOADED_MACHINE_MS,
			},
			(res) => {
				/** @type {Buffer[]} */
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					if ((res.statusCode ?? 500) >= 400) {
						reject(
							new Error(
								`simulator ${method} ${url.pathname} answered ${res.statusCode}: ${text.slice(0, 300)}`,
							),
						);
						return;
					}
					try {
						resolve(text ? JSON.parse(text) : undefined);
					} catch {
						resolve(text);
					}
				});
			},
		);
		req.on('timeout', () =>
			req.destroy(new Error(`simulator ${method} ${url.pathname} timed out`)),
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/**
 * Runs the simulator's CLI as a child process, the same way a person would, and waits for
 * its first stdout line, which names the addresses and the key.
 * @param {{timeoutMs?: number}} [options]
 * @returns {Promise<RunningSimulator>}
 */
async function startSimulator(options = {}) {
	if (!fs.existsSync(CLI)) {
		throw new Error(
			`the service simulator is missing (${path.relative(REPO_ROOT, CLI)} not found)`,
		);
	}
	const { child, stop } = startDetached(process.execPath, [CLI, '--json'], {
		cwd: REPO_ROOT,
		env: cleanEnv(),
	});
	let output = '';
	child.stderr?.on('data', (c) => {
		output += c.toString('utf8');
	});

	/** @type {SimulatorInfo} */
	const info = await new Promise((resolve, reject) => {
		let buffered = '';
		/** @param {number | null} code */
		const onEarlyExit = (code) => fail(new Error(`the simulator exited early (code ${code})`));
		const timer = setTimeout(
			() =>
				fail(
					new Error(
						`the simulator printed no address within ${(options.timeoutMs ?? LOADED_MACHINE_MS) / 1000} s`,
					),
				),
			options.timeoutMs ?? LOADED_MACHINE_MS,
		);
		/** @param {Error} err */
		function fail(err) {
			clearTimeout(timer);
			child.off('close', onEarlyExit);
			void stop();
			reject(
				new Error(`${err.message}${output ? `\nsimulator stderr:\n${output.slice(-2000)}` : ''}`),
			);
		}
		/** @param {Buffer} chunk */
		const onData = (chunk) => {
			buffered += chunk.toString('utf8');
			const newline = buffered.indexOf('\n');
			if (newline < 0) return;
			child.stdout?.off('data', onData);
			// Keep draining so a chatty simulator never blocks on a full pipe.
			child.stdout?.on('data', (c) => {
				output += c.toString('utf8');
			});
			clearTimeout(timer);
			child.off('close', onEarlyExit);
			try {
				const parsed = JSON.parse(buffered.slice(0, newline));
				if (typeof parsed.baseUrl !== 'string' || typeof parsed.apiKey !== 'string') {
					throw new Error('baseUrl or apiKey missing');
				}
				resolve(parsed);
			} catch (err) {
				fail(
					new Error(
						`could not read the simulator's first line as JSON: ${/** @type {Error} */ (err).message}`,
					),
				);
			}
		};
		child.stdout?.on('data', onData);
		child.once('close', onEarlyExit);
	});
	addSecret(info.apiKey);

	return {
		...info,
		stop,
		stats: () => admin(info.baseUrl, 'GET', '__sim/stats'),
		configure: (config) => admin(info.baseUrl, 'POST', '__sim/configure', config),
		faults: (faults) => admin(info.baseUrl, 'POST', '__sim/faults', faults),
		clearFaults: () => admin(info.baseUrl, 'POST', '__sim/faults/clear', {}),
		reset: () => admin(info.baseUrl, 'POST', '__sim/reset', {}),
		tasks: () => admin(info.baseUrl, 'GET', '__sim/tasks'),
		output: () => output,
	};
}

module.exports = { startSimulator };
