// @ts-check
'use strict';

// What a user of this example must get: real PNG images at the end of the workflow, each
// traceable to its input item, made from an A+ plan at its module's exact pixel size, with the
// key sent only to the service's own origin.

const assert = require('node:assert/strict');
const { lastNodeItems, productImageNodesRan } = require('../lib/checks');
const { checkModuleSizes, checkModuleItems, A_PLUS_SIMULATOR } = require('../lib/module-sizes');

/** @type {import('../lib/expectation').Expectation} */
const expectation = (runData, ctx) => {
	productImageNodesRan(runData, ctx);
	const { last, items } = lastNodeItems(ctx);

	let images = 0;
	items.forEach((item, i) => {
		assert.ok(item.pairedItem !== undefined, `item ${i} of "${last}" has no pairedItem`);
		const binaries = Object.entries(ctx.binaries(item));
		assert.ok(binaries.length > 0, `item ${i} of "${last}" carries no binary data`);
		if (ctx.binaryMode === 'combined')
			assert.equal(item.binary, undefined, `item ${i}: combined mode keeps files in _files`);
		for (const [field, entry] of binaries) {
			if (ctx.binaryMode !== 'default')
				assert.ok(entry.id, `binary "${field}" of item ${i} was not stored in filesystem mode`);
			const { bytes } = ctx.readBinary(entry);
			const size = ctx.pngSize(bytes);
			assert.ok(size, `binary "${field}" of item ${i} is not a PNG`);
			assert.ok(
				size.width > 0 && size.height > 0,
				`binary "${field}" of item ${i} is ${size.width}x${size.height}`,
			);
			assert.equal(
				entry.mimeType,
				'image/png',
				`binary "${field}" of item ${i} has MIME type ${entry.mimeType}`,
			);
			images += 1;
		}
	});

	// The chain: the uploaded photo feeds analysis, plan and every generation; each image leaves at
	// its module's size and carries the plan's prompt and style guide.
	const uploaded = ctx.items('Upload photo');
	assert.equal(uploaded.length, 1, 'one uploaded photo');
	const photoUrl = String(uploaded[0].json.url);
	const modules = ctx.items('Plan A+ content').map((item) => String(item.json.module));
	assert.deepEqual(modules, ['hero', 'core', 'size']);
	assert.equal(last, 'Fit to module size');
	checkModuleSizes(ctx, 'Plan A+ content');
	checkModuleItems(ctx, 'Plan A+ content');
	for (const task of ctx.tasks) {
		assert.deepEqual(task.body.image_urls, [photoUrl], 'every generation uses the uploaded photo');
		assert.equal(task.body.plan_prompt, task.body.prompt);
		assert.ok(task.body.series_style_guide, 'the series style guide travels with each generation');
	}

	const { stats } = ctx;
	assert.ok((stats.byRoute?.plan ?? 0) >= 1, 'no A+ plan was requested');
	assert.ok(stats.submitsAccepted >= 1, 'no generation task was submitted');
	assert.ok(
		images >= stats.submitsAccepted,
		`${stats.submitsAccepted} task(s) submitted but only ${images} image(s) came out`,
	);
	assert.equal(stats.cdnAuthRejected, 0, 'the API key was sent to the CDN origin');
	for (const r of stats.requests ?? []) {
		if (r.origin === 'cdn')
			assert.ok(!r.authorization, `the key went to the CDN: ${r.method} ${r.path}`);
		else if (!['media', 'asset'].includes(r.route))
			assert.match(
				String(r.authorization ?? ''),
				/^Bearer /,
				`${r.method} ${r.path} was sent without the key`,
			);
	}
};

expectation.simulator = A_PLUS_SIMULATOR;
expectation.binaryModes = ['default', 'filesystem', 'combined'];
// In combined binary mode Upload photo finds the file by the name it has (data); Edit Image, like
// n8n's other nodes, takes n8n's path (its default `data` finds nothing there), and writes the
// fitted image back over the generated one.
expectation.combinedWorkflow = (/** @type {any} */ workflow) => {
	const fit = workflow.nodes.find((/** @type {any} */ node) => node.name === 'Fit to module size');
	fit.parameters.dataPropertyName = '_files.data';
	fit.parameters.options = { ...fit.parameters.options, destinationKey: 'data' };
};

module.exports = expectation;
