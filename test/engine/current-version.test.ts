import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { shopifyProduct } from '../harness/storeProducts';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';

// Across operations, the current node version does what its panel shows: the product's fields
// reach the generated items unless switched off, Output's choices, Product Details and Plan
// Details. Version 1 keeps what it did.

const simulator = useSimulator();

const quick = { initialDelay: 0, pollInterval: 0.1 };
// Version 1 keeps the wait settings as options of their own, the current version in Options → Waiting.
const fastFor = (typeVersion: number): INodeParameters =>
	typeVersion === 1 ? quick : { waiting: { value: quick } };
const products = [
	{ json: { id: 101, title: 'Trail Bottle' } },
	{ json: { id: 102, title: 'Camp Mug' } },
];

const node = (typeVersion: number, parameters: INodeParameters) => ({ typeVersion, parameters });

const generateAndWait = (typeVersion: number, options: INodeParameters = {}) =>
	node(typeVersion, {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: '={{ $json.title }} on a white background',
		options: { ...fastFor(typeVersion), ...options },
	});

describe('the product’s fields on the generated items', () => {
	test('the current version carries them without the option', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait(CURRENT)],
			input: products,
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.title])).toEqual([
			[101, 'Trail Bottle'],
			[102, 'Camp Mug'],
		]);
		expect(sim.tasks.has(String(result.items[0].json.task_id))).toBe(true);
	});

	test('the current version leaves them out when switched off; version 1 leaves them out by default', async () => {
		const sim = simulator();
		for (const generation of [
			generateAndWait(CURRENT, { includeOtherFields: false }),
			generateAndWait(1),
		]) {
			const result = await runWorkflow({
				credentials: credentialsFor(sim),
				nodes: [generation],
				input: products,
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).not.toHaveProperty('title');
		}
	});

	test('Submit Generation (No Wait) of the current version carries them too', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [node(CURRENT, { resource: 'image', operation: 'generate', prompt: 'studio shot' })],
			input: products,
		});

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.title)).toEqual(['Trail Bottle', 'Camp Mug']);
		expect(result.items[0].json.status).toBe('submitted');
	});
});

describe('file names without Product Name', () => {
	test.each([
		[CURRENT, {}, ['trail-bottle.png', 'camp-mug.png']],
		[CURRENT, { includeOtherFields: false }, [/^task_.*-0\.png$/, /^task_.*-0\.png$/]],
		[1, {}, [/^task_.*-0\.png$/, /^task_.*-0\.png$/]],
	] as const)(
		'version %s with options %j: the input item’s title names the file in the current version',
		async (typeVersion, options, names) => {
			const sim = simulator();
			const result = await runWorkflow({
				credentials: credentialsFor(sim),
				nodes: [generateAndWait(typeVersion, options)],
				input: products,
			});

			expect(result.error).toBeUndefined();
			result.items.forEach((item, index) => {
				const name = names[index];
				if (typeof name === 'string') expect(item.binary?.data.fileName).toBe(name);
				else expect(item.binary?.data.fileName).toMatch(name);
			});
		},
	);
});

describe('the product’s fields through Analyze and A+ Plan (the current version)', () => {
	const amazonItem = {
		json: { asin: 'B0TRAIL01', title: 'Trail Bottle', images: ['https://img.test/bottle.jpg'] },
	};
	const analyze = (typeVersion: number, options: INodeParameters = {}) =>
		node(typeVersion, {
			resource: 'analysis',
			operation: 'analyze',
			imageUrls: '={{ $json.images }}',
			options,
		});
	const plan = (typeVersion: number) =>
		node(typeVersion, {
			resource: 'aPlusPlan',
			operation: 'create',
			imageUrls: 'https://img.test/bottle.jpg',
			modules: ['hero', 'core'],
		});

	test('the current version carries them from the store item to every module item', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [analyze(CURRENT), plan(CURRENT)],
			input: [amazonItem],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json.asin).toBe('B0TRAIL01');
			// The product keeps its title; the module's own is under a name of its own.
			expect(item.json.module).toBeDefined();
			expect(item.json.title).toBe('Trail Bottle');
			expect(item.json.module_title).toEqual(expect.any(String));
			expect(item.json.module_title).not.toBe('Trail Bottle');
			// The analysis the plan was made from is not carried on: the plan replaces it.
			for (const used of ['analysis', 'formattedText', 'output_text', 'request_id'])
				expect(item.json).not.toHaveProperty(used);
			// The module's own fields first, where the next node's input panel shows them.
			expect(Object.keys(item.json)[0]).not.toBe('asin');
		}
	});

	test('switched off in Analyze, and in version 1, they are not carried', async () => {
		for (const nodes of [[analyze(CURRENT, { includeOtherFields: false })], [analyze(1)]]) {
			const sim = simulator();
			const result = await runWorkflow({
				credentials: credentialsFor(sim),
				nodes,
				input: [amazonItem],
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json.asin).toBeUndefined();
			expect(result.items[0].json.formattedText).toBeDefined();
		}
	});
});

describe('Output (the current version)', () => {
	const plan = (parameters: INodeParameters = {}) =>
		node(CURRENT, {
			resource: 'aPlusPlan',
			operation: 'create',
			imageUrls: 'https://img.test/bottle.jpg',
			modules: ['hero', 'core'],
			descriptionSource: 'define',
			productDescription: 'Steel bottle',
			...parameters,
		});

	test('Raw, the default, outputs every field, as version 1 does', async () => {
		const sim = simulator();
		const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [plan()] });
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0].json).length).toBeGreaterThan(10);
		expect(result.items[0].json).toHaveProperty('purpose');
	});

	test('Simplified gives a module item at most ten fields, the ones a generation needs', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [plan({ output: 'simplified' })],
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
			expect(item.json).toMatchObject({ target_width: expect.any(Number) });
			expect(item.json).toHaveProperty('recommended_prompt');
			expect(item.json).not.toHaveProperty('purpose');
		}
		expect(result.items.map((item) => item.json.module)).toEqual(['hero', 'core']);
	});

	test('Selected Fields outputs the chosen fields and the key', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [plan({ output: 'selected', outputFields: ['target_size'] })],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ module: 'hero', target_size: '1464x600' });
	});

	test('Task → Get, Simplified: the task with its image URLs as one list', async () => {
		const sim = simulator();
		const submitted = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait(CURRENT, { outputFiles: { value: { downloadImages: false } } })],
			input: [products[0]],
		});
		const taskId = String(submitted.items[0].json.task_id);
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [node(CURRENT, { resource: 'task', operation: 'get', taskId, output: 'simplified' })],
		});
		expect(result.error).toBeUndefined();
		const json = result.items[0].json;
		expect(json.task_id).toBe(taskId);
		expect(json.image_urls).toEqual([submitted.items[0].json.url]);
		expect(json).not.toHaveProperty('result');
		expect(Object.keys(json).length).toBeLessThanOrEqual(10);
	});

	test('Generate and Wait, Simplified: the files stay, the item has at most ten fields', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					...generateAndWait(CURRENT),
					parameters: { ...generateAndWait(CURRENT).parameters, output: 'simplified' },
				},
			],
			input: products,
		});
		expect(result.error).toBeUndefined();
		for (const [index, item] of result.items.entries()) {
			expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
			expect(item.json).toHaveProperty('url');
			expect(item.json).toHaveProperty('generated_width');
			// The product's identity stays, so an agent can say which product the image is for.
			expect(item.json).toMatchObject(products[index].json);
			expect(item.binary?.data).toBeDefined();
		}
	});

	test('version 1 has no Output choice: a stored value changes nothing', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					...plan({ output: 'simplified', options: { splitModules: true } }),
					parameters: {
						...plan().parameters,
						productDescription: 'Steel bottle',
						output: 'simplified',
						options: { splitModules: true },
					},
					typeVersion: 1,
				},
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toHaveProperty('purpose');
	});
});

describe('the optional inputs in Product Details and Plan Details (the current version)', () => {
	/** The body a generation with these Product Details sends. */
	async function generationBody(productDetails: INodeParameters, input?: INodeExecutionData[]) {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				node(CURRENT, {
					resource: 'image',
					operation: 'generate',
					prompt: 'studio shot',
					productDetails,
				}),
			],
			input,
		});
		expect(result.error).toBeUndefined();
		return sim.tasks.get(String(result.items[0].json.task_id))?.body;
	}

	test('a generation sends the product, platform and language set in Product Details', async () => {
		const body = await generationBody({
			productName: 'Trail Bottle',
			sellingPoints: 'Cold for 24 hours',
			platform: { value: { platform: 'custom', customPlatform: 'zalando' } },
			outputLanguage: { value: { outputLanguage: 'de-de' } },
		});
		expect(body).toMatchObject({
			product_info: {
				name: 'Trail Bottle',
				sellingPoints: 'Cold for 24 hours',
				platform: 'zalando',
			},
			output_language: 'de-de',
		});
	});

	test('a Product Name whose expression gives null (a store field left empty) sends no name', async () => {
		const body = await generationBody(
			{ productName: '={{ $json.title }}', sellingPoints: 'Cold for 24 hours' },
			[{ json: { id: 103, title: null } }],
		);
		expect(body?.product_info).toEqual({ sellingPoints: 'Cold for 24 hours' });
	});

	test('a Product Name or Selling Points whose expression gives a number or a flag is sent as text', async () => {
		const body = await generationBody({ productName: '={{ 750 }}', sellingPoints: '={{ true }}' });
		expect(body?.product_info).toEqual({ name: '750', sellingPoints: 'true' });
	});

	test('a plan sends the description typed below, and the platform, market and language of Plan Details', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				node(CURRENT, {
					resource: 'aPlusPlan',
					operation: 'create',
					modules: ['core'],
					imageUrls: 'https://img.test/bottle.jpg',
					descriptionSource: 'define',
					productDescription: 'Steel bottle',
					planDetails: {
						market: { value: { market: 'custom', customMarket: 'be' } },
						language: { value: { language: 'de-DE' } },
					},
				}),
			],
		});
		expect(result.error).toBeUndefined();
		// The simulator writes the description into each prompt; the module item carries the rest.
		expect(String(result.items[0].json.recommended_prompt)).toContain('for Steel bottle:');
		// Platform not added: Amazon, the default it shows (A+ content is Amazon's).
		expect(result.items[0].json).toMatchObject({
			platform: 'amazon',
			market: 'BE',
			language: 'de-DE',
		});
	});

	test('a plan for another platform sends the one typed under Other', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				node(CURRENT, {
					resource: 'aPlusPlan',
					operation: 'create',
					modules: ['core'],
					imageUrls: 'https://img.test/bottle.jpg',
					descriptionSource: 'define',
					productDescription: 'Steel bottle',
					planDetails: { platform: { value: { platform: 'custom', customPlatform: 'walmart' } } },
				}),
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.platform).toBe('walmart');
	});

	test('Analyze sends the Product Name set in Product Details', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				node(CURRENT, {
					resource: 'analysis',
					operation: 'analyze',
					imageUrls: 'https://img.test/bottle.jpg',
					productDetails: { productName: 'Trail Bottle' },
				}),
			],
		});
		expect(result.error).toBeUndefined();
		// The simulator answers with the product name it received.
		const analysis = result.items[0].json.analysis as { product_name?: string };
		expect(analysis.product_name).toBe('Trail Bottle');
	});
});

describe('Simplified keeps at most ten fields, however many the items carry', () => {
	// A store product, handed on by Include Other Input Fields, then a module's fields: module items
	// and generated image items hold every field of their Simplified list, so one more is an eleventh.
	const current = (parameters: INodeParameters) => node(CURRENT, parameters);
	const plan = (output: string) =>
		current({
			resource: 'aPlusPlan',
			operation: 'create',
			imageUrls: '={{ $json.images }}',
			modules: ['hero', 'core'],
			output,
			descriptionSource: 'define',
			productDescription: 'Steel bottle',
			planDetails: {
				platform: { value: { platform: 'amazon' } },
				market: { value: { market: 'custom', customMarket: 'us' } },
				language: { value: { language: 'en-US' } },
			},
		});
	const image = (operation: string, parameters: INodeParameters) =>
		current({
			resource: 'image',
			operation,
			prompt: '={{ $json.recommended_prompt }}',
			...parameters,
		});
	const task = (operation: string) =>
		current({
			resource: 'task',
			operation,
			taskId: '={{ $json.task_id }}',
			output: 'simplified',
			options: fastFor(CURRENT),
		});

	test.each([
		['A+ Plan → Create, module items', [plan('simplified')]],
		[
			'Image → Generate and Wait',
			[plan('raw'), image('generateAndWait', { output: 'simplified', options: fastFor(CURRENT) })],
		],
		['Task → Wait for Completion', [plan('raw'), image('generate', {}), task('wait')]],
		[
			'Task → Get',
			[
				plan('raw'),
				image('generateAndWait', {
					options: { ...fastFor(CURRENT), outputFiles: { value: { downloadImages: false } } },
				}),
				task('get'),
			],
		],
	])('%s', async (_, nodes) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes,
			input: [{ json: shopifyProduct }],
		});
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
	});
});
