// @ts-check
'use strict';

// A stand-in for a Shopify store's product list, as the submit example reads it: the Admin REST
// API's `GET /admin/api/<version>/products.json` with `limit` and `since_id`, the products in id
// order, a `Link` header to the next page, and the access token in `X-Shopify-Access-Token`.
// It counts the pages it answered, so a test can hold a run to the reads it needs.

const http = require('node:http');

const TOKEN = 'shpat_stand_in_store_token';

/**
 * @param {{products: number, firstId?: number}} options
 * @returns {Promise<{url: string, token: string, reads: () => number, stop: () => Promise<void>}>}
 */
async function startShop({ products, firstId = 8000000001 }) {
	const catalog = Array.from({ length: products }, (_, i) => ({
		id: firstId + i,
		title: `Trail shoe ${i + 1}`,
		image: { src: `https://cdn.shop.example/products/${firstId + i}.png` },
	}));
	let reads = 0;
	const server = http.createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://store');
		const answer = (/** @type {number} */ status, /** @type {object} */ body, headers = {}) => {
			res.writeHead(status, { 'content-type': 'application/json', ...headers });
			res.end(JSON.stringify(body));
		};
		if (!/^\/admin\/api\/[0-9-]+\/products\.json$/.test(url.pathname))
			return answer(404, { errors: 'Not Found' });
		if (req.headers['x-shopify-access-token'] !== TOKEN)
			return answer(401, { errors: '[API] Invalid API key or access token' });
		reads += 1;
		const limit = Math.min(250, Number(url.searchParams.get('limit') ?? 50));
		const after = Number(url.searchParams.get('since_id') ?? 0);
		const page = catalog.filter((p) => p.id > after).slice(0, limit);
		const last = page[page.length - 1];
		const more = last && catalog[catalog.length - 1].id > last.id;
		const next = `<http://${req.headers.host}${url.pathname}?limit=${limit}&since_id=${last?.id}>; rel="next"`;
		answer(200, { products: page }, more ? { link: next } : {});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
	return {
		url: `http://127.0.0.1:${port}`,
		token: TOKEN,
		reads: () => reads,
		stop: () =>
			new Promise((resolve) => {
				server.close(() => resolve(undefined));
				// n8n keeps its connections open for the next request.
				server.closeAllConnections();
			}),
	};
}

module.exports = { startShop };
