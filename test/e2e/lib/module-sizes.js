// @ts-check
'use strict';

// A+ modules have exact pixel sizes and Amazon refuses others: what the A+ examples hand on must
// be exactly the planned module's size, fitted down from a generation that was large enough.

const assert = require('node:assert/strict');
const { itemBinary } = require('./binary');

/**
 * @param {import('./expectation').Context} ctx
 * @param {string} planNode the node whose items carry `module`, `target_width` and `target_height`
 */
function checkModuleSizes(ctx, planNode) {
	const planned = ctx.items(planNode);
	const generated = ctx.items('Generate A+ images');
	const fitted = ctx.items('Fit to module size');
	assert.equal(fitted.length, planned.length, 'one fitted image per planned module');
	planned.forEach((plan, index) => {
		const { module, target_width: width, target_height: height } = plan.json;
		const made = ctx.pngSize(ctx.readBinary(itemBinary(generated[index])).bytes);
		const out = ctx.pngSize(ctx.readBinary(itemBinary(fitted[index])).bytes);
		assert.ok(made && out, `image ${index} (${module}) is not a PNG`);
		assert.ok(
			made.width >= width && made.height >= height,
			`image ${index} (${module}) was generated at ${made.width}x${made.height}, below its ${width}x${height} module: fitting it upscales`,
		);
		assert.deepEqual(
			[out.width, out.height],
			[width, height],
			`image ${index} (${module}) leaves at ${out.width}x${out.height}, not the module's ${width}x${height}`,
		);
		assert.equal(itemBinary(fitted[index]).mimeType, 'image/png');
	});
	// The resolution: the smallest label whose images cover the module, worked out here from the
	// spec's module table and the simulator's sizes, not from the workflow's own rule.
	assert.equal(ctx.tasks.length, planned.length, 'one generation per planned module');
	for (const task of ctx.tasks) {
		const plan = planned.find((p) => p.json.recommended_prompt === task.body.plan_prompt);
		assert.ok(
			plan,
			`no planned module of "${planNode}" has the plan_prompt a generation was sent: ${JSON.stringify(task.body.plan_prompt)}`,
		);
		const module = String(plan.json.module);
		const spec = SPEC_MODULE_SIZES[module];
		assert.ok(spec, `module "${module}" is not in the spec's table`);
		assert.deepEqual(
			[plan.json.target_width, plan.json.target_height],
			spec,
			`module "${module}" is planned at the spec's size`,
		);
		assert.equal(task.body.size, aspectRatio(spec), `aspect ratio sent for "${module}"`);
		assert.equal(
			task.body.resolution,
			coveringLabel(spec),
			`resolution sent for "${module}" (${spec.join('x')})`,
		);
	}
}

/**
 * The module source of the current node version (2): every Product Image node is of that version,
 * the generation is configured by the source choice alone, and each generated item says its
 * module, its target size and its real pixel size; the file is named by the module alone.
 * @param {import('./expectation').Context} ctx
 * @param {string} planNode
 */
function checkModuleItems(ctx, planNode) {
	const version = 2;
	for (const node of ctx.nodesOfType('n8n-nodes-product-image.productImage')) {
		assert.equal(
			node.typeVersion,
			version,
			`"${node.name}" is saved with node version ${node.typeVersion}`,
		);
	}
	const generator = ctx
		.nodesOfType('n8n-nodes-product-image.productImage')
		.find((/** @type {any} */ node) => node.name === 'Generate A+ images');
	assert.equal(
		generator?.parameters.generationSource,
		'aPlusModule',
		'Generate A+ images takes its inputs from the module item',
	);
	for (const name of ['prompt', 'size', 'resolution', 'imageUrls']) {
		assert.equal(
			generator.parameters[name],
			undefined,
			`Generate A+ images sets "${name}" by hand`,
		);
	}
	const planned = ctx.items(planNode);
	const generated = ctx.items('Generate A+ images');
	generated.forEach((item, index) => {
		const plan = planned[index].json;
		const png = ctx.pngSize(ctx.readBinary(itemBinary(item)).bytes);
		assert.ok(png, `image ${index} is not a PNG`);
		assert.equal(item.json.module, plan.module, `image ${index} says its module`);
		assert.deepEqual(
			[item.json.target_width, item.json.target_height],
			[plan.target_width, plan.target_height],
			`image ${index} carries its module's target size`,
		);
		assert.deepEqual(
			[item.json.generated_width, item.json.generated_height],
			[png.width, png.height],
			`image ${index} reports its real pixel size`,
		);
		assert.equal(
			item.json.below_target,
			false,
			`image ${index} (${plan.module}) is flagged below its target`,
		);
		assert.equal(itemBinary(item).fileName, `${plan.module}.png`, `file name of image ${index}`);
	});
}

/** The spec's module table: default target size (width, height) of each module. */
const SPEC_MODULE_SIZES = /** @type {Record<string, [number, number]>} */ ({
	hero: [1464, 600],
	hero970: [970, 600],
	core: [970, 600],
	usage: [970, 600],
	angles: [970, 600],
	mood: [970, 600],
	detail: [970, 600],
	brand: [463, 625],
	size: [220, 220],
	compare: [150, 300],
	specs: [970, 600],
	process: [970, 600],
	accessories: [970, 600],
	series: [970, 600],
	ingredients: [970, 600],
	care: [970, 600],
	tips: [600, 450],
});

/** @param {[number, number]} size */
function aspectRatio([width, height]) {
	/** @type {(a: number, b: number) => number} */
	const gcd = (a, b) => (b === 0 ? a : gcd(b, a % b));
	const d = gcd(width, height);
	return `${width / d}:${height / d}`;
}

/** The simulator's labels, smallest first: a 1k image's long side is imageLongSide, 2k twice that. */
const SIMULATOR_SCALES = /** @type {[string, number][]} */ ([
	['1k', 1],
	['2k', 2],
	['4k', 4],
]);

/** @param {[number, number]} size */
function coveringLabel([width, height]) {
	const longSide = Math.max(width, height);
	const found = SIMULATOR_SCALES.find(
		([, scale]) => A_PLUS_SIMULATOR.imageLongSide * scale >= longSide,
	);
	assert.ok(found, `no label covers a ${width}x${height} module`);
	return found[0];
}

/** The long side the simulator gives a 1k image, as the examples' resolution choice assumes. */
const A_PLUS_SIMULATOR = { imageLongSide: 1024 };

module.exports = { checkModuleSizes, checkModuleItems, A_PLUS_SIMULATOR };
