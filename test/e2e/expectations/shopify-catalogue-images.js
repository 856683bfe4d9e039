// @ts-check
'use strict';

// One generated listing image per Shopify product, made from that product's photos and title,
// handed on as binary data far enough for the next node to turn it into base64 for Shopify.

const assert = require('node:assert/strict');

/** @type {import('../lib/expectation').Expectation} */
const expectation = (_runData, ctx) => {
	const products = ctx.items('Get products');
	const generated = ctx.items('Generate listing image');
	assert.equal(generated.length, products.length, 'one image per product');
	assert.equal(ctx.stats.submitsAccepted, products.length, 'one generation per product');

	generated.forEach((item, index) => {
		const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
		assert.equal(paired?.item, index, `image ${index} is paired with product ${paired?.item}`);
		const { bytes } = ctx.readBinary(item.binary.data);
		const size = ctx.pngSize(bytes);
		assert.ok(size && size.width === size.height, `image ${index} is not a square PNG`);
	});

	// Image URLs is the plain drag {{ $json.images }}: every photo of the product, in Shopify's order.
	const bodies = ctx.tasks.map((/** @type {any} */ task) => task.body);
	products.forEach((product, index) => {
		const photos = product.json.images.map((/** @type {any} */ image) => image.src);
		assert.ok(photos.length > 1, `product ${index} of the fixture has several photos`);
		const body = bodies.find((/** @type {any} */ b) => b.product_info?.name === product.json.title);
		assert.ok(body, `no task for product ${index}`);
		assert.deepEqual(
			body.image_urls,
			photos,
			`product ${index}: the service received other addresses`,
		);
		assert.match(body.prompt, new RegExp(product.json.title));
		assert.deepEqual(body.product_info, { name: product.json.title, platform: 'shopify' });
	});

	const encoded = ctx.items('Image to base64');
	assert.equal(encoded.length, products.length);
	for (const item of encoded) {
		assert.ok(
			ctx.pngSize(Buffer.from(item.json.attachment, 'base64')),
			'the base64 handed to Shopify is not the PNG',
		);
	}
};

module.exports = expectation;
