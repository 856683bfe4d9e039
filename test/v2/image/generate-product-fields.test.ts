import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { useSimulator } from '../../harness/simulator';
import { PRODUCTS, runOn } from '../../harness/operations';

// What a generation sends of the product (Product Details) and what its items carry of the input
// item (Include Other Input Fields, on by default).

const simulator = useSimulator();

const generate = (parameters: INodeParameters = {}) => ({
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', ...parameters },
});

describe('the input item’s fields on the submitted items', () => {
	test('carried without the option', async () => {
		const result = await runOn(simulator(), [generate()], PRODUCTS);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.title)).toEqual(['Trail Bottle', 'Camp Mug']);
		expect(result.items[0].json.status).toBe('submitted');
	});

	test('carried with Include Other Input Fields on, whatever the input’s task_id', async () => {
		const input = [{ json: { ...PRODUCTS[0].json, task_id: 'from-input' } }, PRODUCTS[1]];
		const result = await runOn(
			simulator(),
			[generate({ prompt: 'x', options: { includeOtherFields: true } })],
			input,
		);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json.title)).toEqual(['Trail Bottle', 'Camp Mug']);
		expect(result.items.map((item) => item.json.status)).toEqual(['submitted', 'submitted']);
	});

	test('the node’s own fields win, the input’s values are kept under input_fields; one equal to the node’s own is not repeated', async () => {
		const images = [{ id: 1, src: 'https://cdn.shop.test/bottle.jpg', width: 800, height: 800 }];
		const result = await runOn(
			simulator(),
			[generate()],
			[{ json: { id: 8801, title: 'Trail Bottle', status: 'submitted', images } }],
		);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ status: 'submitted', id: 8801 });
		expect(result.items[0].json.input_fields).toEqual({ images });
	});
});

describe('Product Details', () => {
	/** The body a generation with these Product Details sends. */
	async function generationBody(productDetails: INodeParameters, input?: INodeExecutionData[]) {
		const sim = simulator();
		const result = await runOn(sim, [generate({ productDetails })], input);
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
});
