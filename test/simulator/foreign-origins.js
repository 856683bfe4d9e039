// @ts-check
'use strict';

const http = require('node:http');

/**
 * Servers a user may mistake for the service when typing its Base URL: each answers every
 * request the same way, whatever the path or key.
 *
 * @typedef {'redirect' | 'signIn' | 'badGateway' | 'website' | 'notFoundPage' | 'notFoundJson'} ForeignKind
 * @typedef {{kind: ForeignKind, baseUrl: string, requests: {path: string, authorization?: string}[], close: () => Promise<void>}} ForeignOrigin
 */

/** @param {string} title @param {string} text */
const page = (title, text) =>
	`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p></body></html>`;

/**
 * @param {ForeignKind} kind
 * @param {string | undefined} redirectTo
 * @param {string} url the request target, path and query
 * @returns {{status: number, headers: Record<string, string>, body: string}}
 */
function answer(kind, redirectTo, url) {
	const html = { 'content-type': 'text/html; charset=utf-8' };
	switch (kind) {
		case 'redirect':
			// What an http:// listener in front of an https service answers.
			return {
				status: 301,
				headers: { location: `${redirectTo}${url}`, ...html },
				body: page('301 Moved Permanently', 'Moved.'),
			};
		case 'signIn':
			// A portal sending every request to its login page.
			return {
				status: 302,
				headers: { location: `/login?next=${encodeURIComponent(url)}`, ...html },
				body: page('Found', 'Sign in first.'),
			};
		case 'badGateway':
			return {
				status: 502,
				headers: { server: 'nginx', ...html },
				body: page('502 Bad Gateway', 'nginx'),
			};
		case 'website':
			return {
				status: 200,
				headers: html,
				body: page('Acme Outdoor Gear', 'Welcome to our shop.'),
			};
		case 'notFoundPage':
			return {
				status: 404,
				headers: html,
				body: page('Page not found', 'Sorry, that page does not exist.'),
			};
		case 'notFoundJson':
			return {
				status: 404,
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ error: 'Not Found', status: 404 }),
			};
		default:
			throw new TypeError(`unknown foreign origin kind '${kind}'`);
	}
}

/**
 * @param {ForeignKind} kind
 * @param {{redirectTo?: string}} [options] `redirect`: the origin to send requests on to
 * @returns {Promise<ForeignOrigin>}
 */
async function startForeignOrigin(kind, options = {}) {
	if (kind === 'redirect' && !options.redirectTo)
		throw new TypeError("a 'redirect' origin needs redirectTo");
	answer(kind, options.redirectTo, '/');
	/** @type {ForeignOrigin['requests']} */
	const requests = [];
	const server = http.createServer((req, res) => {
		requests.push({ path: req.url || '/', authorization: req.headers.authorization });
		req.resume();
		const reply = answer(kind, options.redirectTo, req.url || '/');
		res.writeHead(reply.status, {
			...reply.headers,
			'content-length': String(Buffer.byteLength(reply.body)),
		});
		res.end(reply.body);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve(undefined));
	});
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		kind,
		baseUrl: `http://127.0.0.1:${port}`,
		requests,
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

module.exports = { startForeignOrigin };
