import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { readPngInfo } from '../simulator';
import { pairedIndexes } from '../harness/fixtures';
import { binaryBytes, runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';

// Node version 2: A+ Plan → Create hands one item per module by default, and Generate and Wait
// with "A+ Module of the Input Item" takes everything from it: no expression is typed.

const simulator = useSimulator();

const fast = { initialDelay: 0, pollInterval: 0.1 };

const plan = (parameters: IDataObject = {}) => ({
	name: 'Plan',
	typeVersion: 2,
	parameters: {
		resource: 'aPlusPlan',
		operation: 'create',
		productDescription: 'Trail insulated steel bottle',
		imageUrls: 'https://img.test/bottle.jpg',
		modules: ['hero', 'core', 'size'],
		platform: 'amazon',
		market: 'US',
		language: 'en-US',
		...parameters,
	},
});

const generateFromModule = (options: INodeParameters = {}, operation = 'generateAndWait') => ({
	name: 'Generate',
	typeVersion: 2,
	parameters: {
		resource: 'image',
		operation,
		generationSource: 'aPlusModule',
		options: operation === 'generateAndWait' ? { ...fast, ...options } : options,
	},
});

test('plan → generate: each module is generated from its own item, at a resolution that covers it, and says so', async () => {
	const sim = simulator();
	sim.configure({ imageLongSide: 1024 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan(), generateFromModule()],
	});

	expect(result.error).toBeUndefined();
	const planned = result.outputs.Plan;
	expect(planned.map((item) => item.json.module)).toEqual(['hero', 'core', 'size']);
	expect(planned[0].json).toMatchObject({
		image_urls: ['https://img.test/bottle.jpg'],
		platform: 'amazon',
		language: 'en-US',
	});

	const bodies = [...sim.tasks.values()].map((task) => task.body);
	expect(bodies).toHaveLength(3);
	// hero is 1464×600: 1k's long side (1024) is short of it, 2k covers it; core and size fit in 1k.
	expect(bodies.map((body) => [body.size, body.resolution])).toEqual([
		['61:25', '2k'],
		['97:60', '1k'],
		['1:1', '1k'],
	]);
	for (const [index, body] of bodies.entries()) {
		expect(body.prompt).toBe(planned[index].json.recommended_prompt);
		expect(body.plan_prompt).toBe(planned[index].json.recommended_prompt);
		expect(body.series_style_guide).toBe(planned[index].json.global_style);
		expect(body.image_urls).toEqual(['https://img.test/bottle.jpg']);
		expect(body.product_info).toEqual({ platform: 'amazon' });
		expect(body.output_language).toBe('en-us');
	}

	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	const expected = [
		['hero', 1464, 600, 'hero-1464x600.png'],
		['core', 970, 600, 'core-970x600.png'],
		['size', 220, 220, 'size-220x220.png'],
	] as const;
	for (const [index, item] of result.items.entries()) {
		const [module, width, height, fileName] = expected[index];
		const png = readPngInfo(await binaryBytes(result, item));
		expect(item.json).toMatchObject({
			module,
			target_width: width,
			target_height: height,
			target_size: `${width}x${height}`,
			width: png.width,
			height: png.height,
			below_target: false,
		});
		expect(png.width).toBeGreaterThanOrEqual(width);
		expect(png.height).toBeGreaterThanOrEqual(height);
		expect(item.binary?.data.fileName).toBe(fileName);
	}
});

/** The run's hints about fitting images to their modules. */
function fittingHints(result: Awaited<ReturnType<typeof runWorkflow>>): string[] {
	return (result.run.data.resultData.runData.Generate[0].hints ?? [])
		.map((hint) => hint.message)
		.filter((message) => message.includes('Edit Image'));
}

test('images not yet at their module size get one hint for the run that says how to fit them', async () => {
	const sim = simulator();
	sim.configure({ imageLongSide: 1024 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan(), generateFromModule()],
	});

	expect(result.error).toBeUndefined();
	// hero 2048×839, core 1024×633, size 1024×1024: none is its module's size.
	expect(result.items.every((item) => item.json.width !== item.json.target_width)).toBe(true);
	expect(fittingHints(result)).toEqual([
		"3 images are not yet the exact size of their A+ modules. Fit with an Edit Image node: Operation 'Resize', 'Width' and 'Height' dragged from 'target_width' and 'target_height', 'Option' set to Ignore Aspect Ratio (the default, Maximum Area, can miss by a pixel).",
	]);
});

test('images that came back at their module size get no fitting hint', async () => {
	const sim = simulator();
	// A 1:1 module of 220×220 generated at 1k with a long side of 220: exactly its size.
	sim.configure({ imageLongSide: 220 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ modules: ['size', 'size'] }), generateFromModule({ imagesOutput: 'together' })],
	});

	expect(result.error).toBeUndefined();
	const images = result.items.flatMap((item) => item.json.images as IDataObject[]);
	expect(images.map((image) => [image.width, image.height])).toEqual([
		[220, 220],
		[220, 220],
	]);
	expect(fittingHints(result)).toEqual([]);
});

test('an image smaller than its module is flagged on its item and in an execution hint', async () => {
	const sim = simulator();
	sim.configure({ imageLongSide: 256 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ modules: ['core'] }), generateFromModule()],
	});

	expect(result.error).toBeUndefined();
	const [item] = result.items;
	expect(item.json).toMatchObject({ module: 'core', width: 256, height: 158, below_target: true });
	const hints = result.run.data.resultData.runData.Generate[0].hints ?? [];
	expect(hints.map((hint) => hint.message).join('\n')).toContain(
		'is 256×158, smaller than its "core" module (970×600)',
	);
});

test('the measured size holds in filesystem mode too, where the file is read back from the store', async () => {
	const sim = simulator();
	sim.configure({ imageLongSide: 1024 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		binaryMode: 'filesystem',
		nodes: [plan({ modules: ['size'] }), generateFromModule()],
	});

	expect(result.error).toBeUndefined();
	const png = readPngInfo(await binaryBytes(result, result.items[0]));
	expect(result.items[0].json).toMatchObject({
		width: png.width,
		height: png.height,
		below_target: false,
	});
	expect(result.items[0].binary?.data.id).toBeTruthy();
});

test('Submit Generation with the module source carries the module on its task item', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ modules: ['brand'] }), generateFromModule({}, 'generate')],
	});

	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({
		module: 'brand',
		target_width: 463,
		target_height: 625,
		status: 'submitted',
	});
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({ size: '463:625', resolution: '1k' });
});

describe('an input item that is not a module is an error before any request', () => {
	test.each([
		[
			'a whole plan',
			{ modules: [{ recommended_prompt: 'x' }], global_style: 's' },
			'whole A+ plan',
		],
		['a product', { id: 7, title: 'Bottle' }, 'A+ Plan → Create'],
		[
			'a module without its size',
			{ module: 'hero', recommended_prompt: 'p', aspect_ratio: '61:25' },
			'target_width, target_height',
		],
	])('%s', async (_label, json, says) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateFromModule()],
			input: [
				{
					json: {
						module: 'core',
						recommended_prompt: 'ok',
						aspect_ratio: '97:60',
						target_width: 970,
						target_height: 600,
					},
				},
				{ json },
			],
		});

		expect(result.error?.message).toContain(
			`'Prompt and Size From': the input item is not an A+ module`,
		);
		expect(`${result.error?.message} ${result.error?.description}`).toContain(says);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

test('a plan without One Item per Module, fed to the module source, fails naming the switch', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ options: { splitModules: false } }), generateFromModule()],
	});

	expect(result.outputs.Plan).toHaveLength(1);
	expect(result.error?.description).toContain('One Item per Module');
	expect(sim.stats.submitsAccepted).toBe(0);
	expect(sim.stats.byRoute.submit ?? 0).toBe(0);
});

test('version 1 saved workflows keep their behaviour: one plan item unless asked, service file names, no measuring', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{ ...plan(), typeVersion: 1 },
			{
				typeVersion: 1,
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt: 'studio',
					size: '3:2',
					resolution: '1k',
					options: fast,
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	expect(result.outputs.Plan).toHaveLength(1);
	const [item] = result.items;
	const [taskId] = [...sim.tasks.keys()];
	expect(item.binary?.data.fileName).toBe(`${taskId}-0.png`);
	expect(item.json).not.toHaveProperty('width');
	expect(item.json).not.toHaveProperty('module');
});
