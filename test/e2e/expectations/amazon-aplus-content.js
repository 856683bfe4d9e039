// @ts-check
'use strict';

// Per ASIN: an analysis, an A+ plan split into its four modules, and one image per module,
// generated with the plan's prompt and style guide and fitted to the module's exact pixel size;
// the binary reaches the MD5 step of Amazon's upload flow.

const assert = require('node:assert/strict');
const { checkModuleSizes, checkModuleItems, A_PLUS_SIMULATOR } = require('../lib/module-sizes');

const MODULES = ['core', 'hero970', 'specs', 'usage'];

/** @type {import('../lib/expectation').Expectation} */
const expectation = (_runData, ctx) => {
	const products = ctx.items('Pick product fields');
	assert.equal(products.length, 2, 'two catalog items');
	assert.equal(ctx.items('Analyze product').length, 2);

	const planned = ctx.items('Plan A+ modules');
	assert.equal(planned.length, 2 * MODULES.length, 'one item per module per product');
	assert.deepEqual([...new Set(planned.map((item) => item.json.module))].sort(), MODULES);

	const images = ctx.items('Generate A+ images');
	assert.equal(images.length, planned.length, 'one image per planned module');
	// The node hands the product's fields on through Analyze and the plan: each image knows its ASIN.
	const asins = products.map((item) => item.json.asin);
	assert.deepEqual(
		[...new Set(images.map((item) => item.json.asin))].sort(),
		[...asins].sort(),
		'every generated image carries the ASIN of its product',
	);
	assert.equal(ctx.stats.submitsAccepted, planned.length);
	checkModuleSizes(ctx, 'Plan A+ modules');
	checkModuleItems(ctx, 'Plan A+ modules');

	for (const task of ctx.tasks) {
		assert.equal(
			typeof task.body.plan_prompt,
			'string',
			'plan_prompt travels with the A+ generation',
		);
		assert.ok(task.body.series_style_guide, 'series_style_guide travels with the A+ generation');
		assert.equal(task.body.prompt, task.body.plan_prompt);
	}

	const hashes = ctx.items('MD5 of image');
	assert.equal(hashes.length, images.length);
	for (const item of hashes) assert.match(String(item.json.contentMD5), /^[A-Za-z0-9+/]{22}==$/);
};

expectation.simulator = A_PLUS_SIMULATOR;

module.exports = expectation;
