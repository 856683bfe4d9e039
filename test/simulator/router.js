// @ts-check
'use strict';

/** @typedef {import('./state').Route} Route */

/** @type {Array<{methods: string[], path: string, route: Route, prefix?: boolean}>} */
const TABLE = [
	{ methods: ['POST'], path: '/v1/open/uploads/images', route: 'upload' },
	{ methods: ['POST'], path: '/v1/open/product-images/generations', route: 'submit' },
	{ methods: ['GET', 'HEAD'], path: '/v1/open/tasks/', route: 'task', prefix: true },
	{ methods: ['GET', 'HEAD'], path: '/v1/open/assets/', route: 'asset', prefix: true },
	{ methods: ['GET', 'HEAD'], path: '/v1/open/media/', route: 'media', prefix: true },
	{ methods: ['POST'], path: '/v1/open/product-analysis', route: 'analysis' },
	{ methods: ['POST'], path: '/v1/open/aplus/plans', route: 'plan' },
];

/**
 * @param {string} method
 * @param {string} pathname raw, still percent-encoded
 * @returns {{route: Route, param: string}}
 */
function classify(method, pathname) {
	for (const entry of TABLE) {
		if (!entry.methods.includes(method)) continue;
		if (!entry.prefix) {
			if (pathname === entry.path) return { route: entry.route, param: '' };
			continue;
		}
		if (!pathname.startsWith(entry.path)) continue;
		const rest = pathname.slice(entry.path.length);
		if (rest === '' || (entry.route === 'task' && rest.includes('/'))) continue;
		// Ids may arrive with '/' encoded or not; both decode to the same asset id.
		let param;
		try {
			param = decodeURIComponent(rest);
		} catch {
			param = '';
		}
		return { route: entry.route, param };
	}
	return { route: 'unknown', param: '' };
}

module.exports = { classify };
