// @ts-check
'use strict';

// `n8n start` as the editor's browser sees it: a private user folder, free ports, an owner
// account and its session, and the REST API the editor calls. `withN8nServer` stops it always.

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { createN8n } = require('../n8n-process');
const { freePort } = require('./ports');
const { LOADED_MACHINE_MS } = require('./waits');

const OWNER = {
	email: 'owner@example.com',
	firstName: 'Test',
	lastName: 'Owner',
	password: 'Owner-Pass-123',
};

/**
 * @typedef {{status: number, headers: http.IncomingHttpHeaders, json: any, text: string}} RestReply
 * @typedef {object} N8nServer
 * @property {string} url
 * @property {string} version
 * @property {string} logFile n8n's own output
 * @property {(method: string, route: string, body?: unknown) => Promise<RestReply>} rest `route` below /rest, as the editor sends it
 * @property {(route: string) => Promise<RestReply>} get any other route of the owner's session, such as /types/nodes.json
 * @property {() => Promise<void>} stop
 */

/**
 * @param {string} url
 * @param {{method: string, headers: Record<string, string>, body?: unknown}} options
 * @returns {Promise<RestReply>}
 */
function request(url, { method, headers, body }) {
	const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{
				method,
				headers: {
					...headers,
					...(payload
						? { 'content-type': 'application/json', 'content-length': String(payload.length) }
						: {}),
				},
				timeout: LOADED_MACHINE_MS,
			},
			(res) => {
				const chunks = /** @type {Buffer[]} */ ([]);
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let json;
					try {
						json = JSON.parse(text);
					} catch {
						json = undefined;
					}
					resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text });
				});
			},
		);
		req.on('timeout', () =>
			req.destroy(new Error(`${method} ${url}: no answer in ${LOADED_MACHINE_MS / 1000} s`)),
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/**
 * The owner setup route answers before n8n has finished starting (a queue-mode main answers
 * /healthz before its REST routes exist): ask until it takes.
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {number} timeoutMs
 */
async function setUpOwner(url, headers, timeoutMs) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const reply = await request(`${url}/rest/owner/setup`, {
			method: 'POST',
			headers,
			body: OWNER,
		}).catch((err) => ({ status: 0, text: String(err), headers: {}, json: undefined }));
		const cookie = (reply.headers['set-cookie'] ?? [])
			.map((c) => c.split(';')[0])
			.find((c) => c.startsWith('n8n-auth='));
		if (reply.status === 200 && cookie) return cookie;
		if (Date.now() > deadline)
			throw new Error(`owner setup failed: HTTP ${reply.status} ${reply.text.slice(0, 300)}`);
		await new Promise((r) => setTimeout(r, 1000));
	}
}

/**
 * Creates the owner account of a fresh n8n (editor or queue-mode main) and returns the headers
 * of its session, for every REST call after it.
 * @param {string} url
 * @param {number} timeoutMs
 * @returns {Promise<Record<string, string>>}
 */
async function ownerSession(url, timeoutMs) {
	// n8n ties the session to the browser that opened it.
	const browser = { 'browser-id': crypto.randomUUID() };
	const cookie = await setUpOwner(url, browser, timeoutMs);
	return { ...browser, cookie };
}

/**
 * @param {object} options
 * @param {import('../install-n8n').N8nInstall} options.install
 * @param {string} options.userFolder a fresh folder (packages already installed in it, if any)
 * @param {NodeJS.ProcessEnv} [options.env]
 * @param {number} [options.readyTimeoutMs]
 * @returns {Promise<N8nServer>}
 */
async function startN8nServer({ install, userFolder, env, readyTimeoutMs = LOADED_MACHINE_MS }) {
	const n8n = await createN8n({ install, userFolder, env });
	const logFile = path.join(userFolder, 'n8n-start.log');
	const log = fs.openSync(logFile, 'a');
	let editor;
	try {
		editor = await n8n.startEditor({
			port: await freePort(),
			stdio: ['ignore', log, log],
			readyTimeoutMs,
		});
	} finally {
		fs.closeSync(log);
	}
	const { stop } = editor;
	// The editor's own address is localhost; ask on the address n8n listens on.
	const url = `http://127.0.0.1:${editor.port}`;
	try {
		const headers = await ownerSession(url, readyTimeoutMs);
		return {
			url,
			version: install.version,
			logFile,
			rest: (method, route, body) => request(`${url}/rest${route}`, { method, headers, body }),
			get: (route) => request(`${url}${route}`, { method: 'GET', headers }),
			stop,
		};
	} catch (err) {
		await stop();
		throw err;
	}
}

/**
 * @template T
 * @param {Parameters<typeof startN8nServer>[0]} options
 * @param {(server: N8nServer) => Promise<T>} use
 * @returns {Promise<T>}
 */
async function withN8nServer(options, use) {
	const server = await startN8nServer(options);
	try {
		return await use(server);
	} finally {
		await server.stop();
	}
}

module.exports = { withN8nServer, ownerSession, OWNER };
