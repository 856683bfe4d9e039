import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';

// Generated items keep their product (Include Other Input Fields) and files say what they are
// (File Name); the spending guard stops a run before the first submit.

const simulator = useSimulator();

// Version 1 keeps the wait settings as options of their own, the current version in Options → Waiting.
const quick = { initialDelay: 0, pollInterval: 0.1 };
const fastFor = (typeVersion: number): INodeParameters =>
	typeVersion === 1 ? quick : { waiting: { value: quick } };
const fast = fastFor(CURRENT);
const products = [
	{ json: { id: 101, title: 'Trail Bottle', task_id: 'from-input' } },
	{ json: { id: 102, title: 'Camp Mug' } },
];

const generateAndWait = (
	options: INodeParameters = {},
	typeVersion = CURRENT,
	parameters: INodeParameters = {},
) => ({
	typeVersion,
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: '={{ $json.title }} on a white background',
		...parameters,
		options: { ...fastFor(typeVersion), ...options },
	},
});

test.each([1, CURRENT])(
	'version %i: Include Other Input Fields puts the product on each image item; the node’s own fields win',
	async (typeVersion) => {
		const sim = simulator();
		sim.configure({ imagesPerTask: 2 });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ includeOtherFields: true }, typeVersion)],
			input: products,
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.title])).toEqual([
			[101, 'Trail Bottle'],
			[101, 'Trail Bottle'],
			[102, 'Camp Mug'],
			[102, 'Camp Mug'],
		]);
		expect(result.items[0].json.task_id).not.toBe('from-input');
		expect(sim.tasks.has(String(result.items[0].json.task_id))).toBe(true);
	},
);

test('version 1, without the option: the items carry the task and image only', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({}, 1)],
		input: products,
	});

	expect(result.error).toBeUndefined();
	expect(result.items[0].json).not.toHaveProperty('title');
});

test('Submit Generation carries the product too', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: CURRENT,
				parameters: {
					resource: 'image',
					operation: 'generate',
					prompt: 'x',
					options: { includeOtherFields: true },
				},
			},
		],
		input: products,
	});

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.title)).toEqual(['Trail Bottle', 'Camp Mug']);
	expect(result.items.map((item) => item.json.status)).toEqual(['submitted', 'submitted']);
});

test('File Name names the files, numbered when a task makes several, with the extension of the type received; a run of characters a file system refuses (a tab among them) becomes one dash', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generateAndWait({
				outputFiles: { value: { fileName: '={{ $json.title }}\t/{{ $json.id }}' } },
			}),
		],
		input: products,
	});

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.binary?.data.fileName)).toEqual([
		'Trail Bottle-101-1.png',
		'Trail Bottle-101-2.png',
		'Camp Mug-102-1.png',
		'Camp Mug-102-2.png',
	]);
});

test('without File Name the files are named after the Product Name, numbered when a task makes several', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generateAndWait({}, CURRENT, {
				productDetails: { productName: '={{ $json.title }} 750 ml' },
			}),
		],
		input: products,
	});

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.binary?.data.fileName)).toEqual([
		'trail-bottle-750-ml-1.png',
		'trail-bottle-750-ml-2.png',
		'camp-mug-750-ml-1.png',
		'camp-mug-750-ml-2.png',
	]);
});

test('version 1 keeps the service’s file names whatever the Product Name', async () => {
	const sim = simulator();
	const node = generateAndWait({}, 1);
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...node, parameters: { ...node.parameters, productName: '={{ $json.title }}' } }],
		input: products.slice(0, 1),
	});

	expect(result.error).toBeUndefined();
	expect(result.items[0].binary?.data.fileName).toBe(
		`${String(result.items[0].json.task_id)}-0.png`,
	);
});

describe('Max Generations per Run', () => {
	const many = Array.from({ length: 5 }, (_, index) => ({
		json: { id: index, title: `Product ${index}` },
	}));

	/** One node that submits `prompt` for each item, with the limit (and any option) given. */
	const submitting = (
		options: INodeParameters,
		{ operation = 'generate', typeVersion = CURRENT, prompt = 'x', continueOnFail = false } = {},
	) => ({
		typeVersion,
		continueOnFail,
		parameters: { resource: 'image', operation, prompt, options },
	});

	const run = async (node: ReturnType<typeof submitting>, input: INodeExecutionData[]) => {
		const sim = simulator();
		const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [node], input });
		return { sim, result };
	};

	test.each(['generate', 'generateAndWait'])(
		'%s: more items than the limit stop the run before any request',
		async (operation) => {
			const { sim, result } = await run(
				submitting({ ...fast, maxGenerations: 3 }, { operation }),
				many,
			);

			expect(result.error?.message).toBe(
				"This run would submit 5 generations, more than 'Max Generations per Run' (3)",
			);
			expect(result.error?.description).toBe(
				'5 items came in, and each submits one generation that the service bills; nothing was submitted. ' +
					"To allow it, raise 'Max Generations per Run' in the node's Options to 5 or more (or remove the option); " +
					'to spend less, filter or limit the items before this node.',
			);
			expect(sim.stats.requests).toHaveLength(0);
		},
	);

	test('version 1 has the guard too', async () => {
		const { sim, result } = await run(submitting({ maxGenerations: 4 }, { typeVersion: 1 }), many);

		expect(result.error?.message).toContain("more than 'Max Generations per Run' (4)");
		expect(sim.stats.requests).toHaveLength(0);
	});

	test('at the limit the run goes ahead; without the option there is no limit', async () => {
		const sim = simulator();
		const atLimit = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [submitting({ maxGenerations: 5 })],
			input: many,
		});
		expect(atLimit.error).toBeUndefined();
		expect(sim.stats.submitsAccepted).toBe(5);

		const unlimited = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [submitting({})],
			input: [...many, ...many],
		});
		expect(unlimited.error).toBeUndefined();
		expect(sim.stats.submitsAccepted).toBe(15);
	});

	test('items refused for their own parameters are not counted: only submits count', async () => {
		const { sim, result } = await run(
			submitting({ maxGenerations: 2 }, { prompt: '={{ $json.prompt }}', continueOnFail: true }),
			[{ json: { prompt: 'a' } }, { json: { prompt: '' } }, { json: { prompt: 'b' } }],
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.error === undefined)).toEqual([true, false, true]);
		expect(sim.stats.submitsAccepted).toBe(2);
	});

	test.each([
		['a fraction', 1.5, '1.5'],
		['zero', 0, '0'],
		['a negative number', -2, '-2'],
		['a word', '={{ "three" }}', '"three"'],
	])(
		'version 1: a limit that is %s stops the run before any request',
		async (_, maxGenerations, shown) => {
			const { sim, result } = await run(
				submitting({ maxGenerations }, { typeVersion: 1 }),
				many.slice(0, 2),
			);

			expect(result.error?.message).toBe(
				`'Max Generations per Run': must be a whole number of at least 1, got ${shown}`,
			);
			expect(sim.stats.requests).toHaveLength(0);
		},
	);

	// In version 1 too, where a limit of 0 is refused: an empty limit is no limit, not 0.
	test.each([
		[CURRENT, 'empty', ''],
		[CURRENT, 'an expression that gives nothing', '={{ null }}'],
		[1, 'empty', ''],
		[1, 'an expression that gives nothing', '={{ null }}'],
	])('version %i: a limit left %s is no limit', async (typeVersion, _, maxGenerations) => {
		const { sim, result } = await run(submitting({ maxGenerations }, { typeVersion }), many);

		expect(result.error).toBeUndefined();
		expect(sim.stats.submitsAccepted).toBe(5);
	});

	test('the current version: 0, the value the panel shows, is no limit', async () => {
		const { sim, result } = await run(
			submitting({ maxGenerations: 0 }, { typeVersion: CURRENT }),
			many,
		);

		expect(result.error).toBeUndefined();
		expect(sim.stats.submitsAccepted).toBe(5);
	});

	test('the current version: any other limit holds, and one below 0 is refused', async () => {
		const over = await run(submitting({ maxGenerations: 3 }, { typeVersion: CURRENT }), many);
		expect(over.result.error?.message).toBe(
			"This run would submit 5 generations, more than 'Max Generations per Run' (3)",
		);
		const below = await run(submitting({ maxGenerations: -1 }, { typeVersion: CURRENT }), many);
		expect(below.result.error?.message).toBe(
			"'Max Generations per Run': must be a whole number of at least 0, got -1",
		);
		expect([over, below].map(({ sim }) => sim.stats.requests.length)).toEqual([0, 0]);
	});

	test('a limit of one lets one item through', async () => {
		const { sim, result } = await run(submitting({ maxGenerations: 1 }), many.slice(0, 1));

		expect(result.error).toBeUndefined();
		expect(sim.stats.submitsAccepted).toBe(1);
	});

	test('a run with nothing left to submit is not held to the limit, even one that reads wrong', async () => {
		const { sim, result } = await run(
			submitting({ maxGenerations: '={{ -1 }}' }, { prompt: '', continueOnFail: true }),
			[{ json: {} }, { json: {} }],
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => String(item.json.error))).toEqual([
			expect.stringContaining('a generation needs a prompt'),
			expect.stringContaining('a generation needs a prompt'),
		]);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

/** The hints a node's run shows above its output (addExecutionHints). */
const hintsOf = (result: Awaited<ReturnType<typeof runWorkflow>>, node = 'Product Image') =>
	(result.run.data.resultData.runData[node]?.[0]?.hints ?? []).map((hint) => hint.message);

describe('what goes to the store (the current version)', () => {
	test('one hint says which field goes to the store and what the generated size means', async () => {
		const sim = simulator();
		sim.configure({ imagesPerTask: 2 });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
			input: [{ json: { id: 101, title: 'Trail Bottle' } }],
		});

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			"To the store: the file in 'data' to upload (as the Shopify example does), or 'url' for a store that fetches images by URL until 'expires_at' (3 days). After an Edit Image resize, 'generated_width' and 'generated_height' still give the generated size, not the fitted one.",
		]);
	});

	test('without files it names the URL alone', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ outputFiles: { value: { downloadImages: false } } })],
			input: [{ json: { id: 101, title: 'Trail Bottle' } }],
		});

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringContaining(
				"To the store: 'url', which the store must fetch before 'expires_at' (3 days).",
			),
		]);
	});
});

describe('the node’s own fields are never the input’s (the current version)', () => {
	// A Shopify product as its node outputs it: the product's photos in `images`, its own `status`.
	const shopifyProduct = {
		json: {
			id: 8801,
			title: 'Trail Bottle',
			status: 'active',
			images: [{ id: 1, src: 'https://cdn.shop.test/bottle.jpg', width: 800, height: 800 }],
		},
	};

	test('a product’s status and images keep their values under input_fields in Raw; the output says so', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
			input: [shopifyProduct],
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json.status).toBe('succeeded');
		expect(item.json.input_fields).toEqual({
			status: 'active',
			images: shopifyProduct.json.images,
		});
		expect(hintsOf(result)).toEqual([
			expect.stringContaining("To the store: the file in 'data'"),
			expect.stringContaining(
				"The input fields 'status', 'images' are named like this node's own, which keep their names: the input's values are under 'input_fields'",
			),
		]);
	});

	test('Submit Generation keeps them the same way; an input field equal to the node’s own is not repeated', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					typeVersion: CURRENT,
					parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot' },
				},
			],
			input: [{ json: { ...shopifyProduct.json, status: 'submitted' } }],
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'submitted', id: 8801 });
		expect(result.items[0].json.input_fields).toEqual({ images: shopifyProduct.json.images });
	});

	test('a product’s images and status do not ride along as the generated image’s; its identity does', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
			input: [shopifyProduct],
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ id: 8801, title: 'Trail Bottle', status: 'succeeded' });
		expect(item.json).not.toHaveProperty('images');
		expect(item.json.generated_width).toEqual(expect.any(Number));
		// The node's own fields first: the next node's input panel shows them at the top.
		expect(Object.keys(item.json)[0]).toBe('task_id');
	});

	test('Simplified keeps the image, its size and the product’s identity, not the product’s photos', async () => {
		const sim = simulator();
		const node = generateAndWait();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ ...node, parameters: { ...node.parameters, output: 'simplified' } }],
			input: [shopifyProduct],
		});

		expect(result.error).toBeUndefined();
		const { json } = result.items[0];
		expect(Object.keys(json).length).toBeLessThanOrEqual(10);
		expect(json).toMatchObject({ id: 8801, title: 'Trail Bottle', url: expect.any(String) });
		expect(json).not.toHaveProperty('images');
	});

	test('One Item per Task: `images` is the task’s images, each with its generated size', async () => {
		const sim = simulator();
		sim.configure({ imagesPerTask: 2 });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ outputFiles: { value: { imagesOutput: 'together' } } })],
			input: [shopifyProduct],
		});

		expect(result.error).toBeUndefined();
		const images = result.items[0].json.images as Array<Record<string, unknown>>;
		expect(images).toHaveLength(2);
		for (const image of images) {
			expect(image.url).toEqual(expect.stringContaining(sim.baseUrl));
			expect(image.generated_width).toEqual(expect.any(Number));
		}
	});

	test('images not at their module’s size get the fitting hint, whatever photos the product carried', async () => {
		const sim = simulator();
		sim.configure({ imageLongSide: 2048 });
		const moduleItem = {
			json: {
				...shopifyProduct.json,
				module: 'core',
				recommended_prompt: 'Trail bottle on a rock',
				aspect_ratio: '97:60',
				target_width: 970,
				target_height: 600,
			},
		};
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({}, CURRENT, { generationSource: 'aPlusModule' })],
			input: [moduleItem],
		});

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringContaining("To the store: the file in 'data'"),
			expect.stringContaining('1 image is not yet the exact size of its A+ module'),
			expect.stringContaining("The input fields 'status', 'images'"),
		]);
	});

	test('A+ module items with Image Settings From left at Define Below: one warning says the module sizes are not used', async () => {
		const sim = simulator();
		const moduleItems = ['hero', 'core'].map((module) => ({
			json: { module, recommended_prompt: 'A banner', target_width: 970, target_height: 600 },
		}));
		const node = generateAndWait();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{ ...node, parameters: { ...node.parameters, prompt: '={{ $json.recommended_prompt }}' } },
			],
			input: moduleItems,
		});

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringContaining(
				"The input items are A+ module items, but 'Image Settings From' is 'Define Below'",
			),
			expect.stringContaining("To the store: the file in 'data'"),
			// Not this node's module: the item keeps it aside, and says so.
			expect.stringContaining("The input fields 'module', 'target_width', 'target_height'"),
		]);
		const plain = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
			input: products,
		});
		// Their 'task_id' is kept aside (one hint says so); no word of A+ modules.
		expect(hintsOf(plain)).toEqual([
			expect.stringContaining("To the store: the file in 'data'"),
			expect.stringContaining("The input field 'task_id' is"),
		]);
	});
});
