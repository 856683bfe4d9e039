import { useSimulator } from '../../harness/simulator';
import {
	PRODUCTS,
	expectAtMostTenFields,
	generateAndWaitNode as generateAndWait,
	hintsOf,
	runOn,
	storePlanNode,
} from '../../harness/operations';
import {
	expectFileNames,
	expectNoProductFields,
	expectProductOnEachImage,
} from '../../harness/versionCases';

// Generated items keep their product (Include Other Input Fields, on by default) and files say
// what they are (File Name, else the Product Name or the input item's title); the node's own
// fields are never the input's; the hints say what goes to the store.

const simulator = useSimulator();

// The first product carries a task_id of its own, which the node's must win over.
const products = [{ json: { ...PRODUCTS[0].json, task_id: 'from-input' } }, PRODUCTS[1]];

describe('the product’s fields on the generated items', () => {
	test('carried without the option', async () => {
		const sim = simulator();
		const result = await runOn(sim, [generateAndWait()], PRODUCTS);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => [item.json.id, item.json.title])).toEqual([
			[101, 'Trail Bottle'],
			[102, 'Camp Mug'],
		]);
		expect(sim.tasks.has(String(result.items[0].json.task_id))).toBe(true);
	});

	test('left out when switched off', async () => {
		await expectNoProductFields(simulator(), 2, { includeOtherFields: false }, PRODUCTS);
	});

	test('Include Other Input Fields puts the product on each image item; the node’s own fields win', async () => {
		await expectProductOnEachImage(simulator(), 2);
	});
});

describe('file names', () => {
	test.each([
		[{}, ['trail-bottle.png', 'camp-mug.png']],
		[{ includeOtherFields: false }, [/^task_.*-0\.png$/, /^task_.*-0\.png$/]],
	] as const)(
		'without Product Name, with options %j: the input item’s title names the file',
		async (options, names) => {
			await expectFileNames(simulator(), 2, options, PRODUCTS, names);
		},
	);

	test('File Name names the files, numbered when a task makes several, with the extension of the type received; a run of characters a file system refuses (a tab among them) becomes one dash', async () => {
		const sim = simulator();
		sim.configure({ imagesPerTask: 2 });
		const result = await runOn(
			sim,
			[
				generateAndWait({
					outputFiles: { value: { fileName: '={{ $json.title }}\t/{{ $json.id }}' } },
				}),
			],
			products,
		);

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
		const result = await runOn(
			sim,
			[generateAndWait({}, 2, { productDetails: { productName: '={{ $json.title }} 750 ml' } })],
			products,
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.binary?.data.fileName)).toEqual([
			'trail-bottle-750-ml-1.png',
			'trail-bottle-750-ml-2.png',
			'camp-mug-750-ml-1.png',
			'camp-mug-750-ml-2.png',
		]);
	});
});

test('Simplified: the files stay, the item has at most ten fields', async () => {
	const sim = simulator();
	const result = await runOn(sim, [generateAndWait({}, 2, { output: 'simplified' })], PRODUCTS);
	expect(result.error).toBeUndefined();
	for (const [index, item] of result.items.entries()) {
		expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
		expect(item.json).toHaveProperty('url');
		expect(item.json).toHaveProperty('generated_width');
		// The product's identity stays, so an agent can say which product the image is for.
		expect(item.json).toMatchObject(PRODUCTS[index].json);
		expect(item.binary?.data).toBeDefined();
	}
});

describe('what goes to the store', () => {
	test('one hint says which field goes to the store and what the generated size means', async () => {
		const sim = simulator();
		sim.configure({ imagesPerTask: 2 });
		const result = await runOn(sim, [generateAndWait()], [PRODUCTS[0]]);

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			"To the store: the file in 'data' to upload (as the Shopify example does), or 'url' for a store that fetches images by URL until 'expires_at' (3 days). After an Edit Image resize, 'generated_width' and 'generated_height' still give the generated size, not the fitted one.",
		]);
	});

	test('without files it names the URL alone', async () => {
		const sim = simulator();
		const result = await runOn(
			sim,
			[generateAndWait({ outputFiles: { value: { downloadImages: false } } })],
			[PRODUCTS[0]],
		);

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringContaining(
				"To the store: 'url', which the store must fetch before 'expires_at' (3 days).",
			),
		]);
	});
});

describe('the node’s own fields are never the input’s', () => {
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
		const result = await runOn(simulator(), [generateAndWait()], [shopifyProduct]);

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

	test('a product’s images and status do not ride along as the generated image’s; its identity does', async () => {
		const result = await runOn(simulator(), [generateAndWait()], [shopifyProduct]);

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		expect(item.json).toMatchObject({ id: 8801, title: 'Trail Bottle', status: 'succeeded' });
		expect(item.json).not.toHaveProperty('images');
		expect(item.json.generated_width).toEqual(expect.any(Number));
		// The node's own fields first: the next node's input panel shows them at the top.
		expect(Object.keys(item.json)[0]).toBe('task_id');
	});

	test('Simplified keeps the image, its size and the product’s identity, not the product’s photos', async () => {
		const result = await runOn(
			simulator(),
			[generateAndWait({}, 2, { output: 'simplified' })],
			[shopifyProduct],
		);

		expect(result.error).toBeUndefined();
		const { json } = result.items[0];
		expect(Object.keys(json).length).toBeLessThanOrEqual(10);
		expect(json).toMatchObject({ id: 8801, title: 'Trail Bottle', url: expect.any(String) });
		expect(json).not.toHaveProperty('images');
	});

	test('One Item per Task: `images` is the task’s images, each with its generated size', async () => {
		const sim = simulator();
		sim.configure({ imagesPerTask: 2 });
		const result = await runOn(
			sim,
			[generateAndWait({ outputFiles: { value: { imagesOutput: 'together' } } })],
			[shopifyProduct],
		);

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
		const result = await runOn(
			sim,
			[generateAndWait({}, 2, { generationSource: 'aPlusModule' })],
			[moduleItem],
		);

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
		const result = await runOn(
			sim,
			[generateAndWait({}, 2, { prompt: '={{ $json.recommended_prompt }}' })],
			moduleItems,
		);

		expect(result.error).toBeUndefined();
		expect(hintsOf(result)).toEqual([
			expect.stringContaining(
				"The input items are A+ module items, but 'Image Settings From' is 'Define Below'",
			),
			expect.stringContaining("To the store: the file in 'data'"),
			// Not this node's module: the item keeps it aside, and says so.
			expect.stringContaining("The input fields 'module', 'target_width', 'target_height'"),
		]);
		const plain = await runOn(sim, [generateAndWait()], products);
		// Their 'task_id' is kept aside (one hint says so); no word of A+ modules.
		expect(hintsOf(plain)).toEqual([
			expect.stringContaining("To the store: the file in 'data'"),
			expect.stringContaining("The input field 'task_id' is"),
		]);
	});
});

test('Simplified keeps at most ten fields after a store product and its A+ module', async () => {
	await expectAtMostTenFields(simulator(), [
		storePlanNode('raw'),
		generateAndWait({}, 2, { prompt: '={{ $json.recommended_prompt }}', output: 'simplified' }),
	]);
});
