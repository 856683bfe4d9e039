import type { INodeParameters } from 'n8n-workflow';

import { useSimulator } from '../../harness/simulator';
import { expectAtMostTenFields, runOn, storePlanNode } from '../../harness/operations';

// What the module items carry: the store item's fields, Output's choices (Raw, Simplified,
// Selected Fields), and the platform, market and language of Plan Details.

const simulator = useSimulator();

const plan = (parameters: INodeParameters = {}) => ({
	parameters: {
		resource: 'aPlusPlan',
		operation: 'create',
		imageUrls: 'https://img.test/bottle.jpg',
		modules: ['hero', 'core'],
		descriptionSource: 'define',
		productDescription: 'Steel bottle',
		...parameters,
	},
});

test('the product’s fields go from the store item through Analyze to every module item', async () => {
	const amazonItem = {
		json: { asin: 'B0TRAIL01', title: 'Trail Bottle', images: ['https://img.test/bottle.jpg'] },
	};
	const analyze = {
		parameters: { resource: 'analysis', operation: 'analyze', imageUrls: '={{ $json.images }}' },
	};
	const fromAnalysis = {
		parameters: {
			resource: 'aPlusPlan',
			operation: 'create',
			imageUrls: 'https://img.test/bottle.jpg',
			modules: ['hero', 'core'],
		},
	};
	const result = await runOn(simulator(), [analyze, fromAnalysis], [amazonItem]);

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

describe('Output', () => {
	test('Raw, the default, outputs every field, as version 1 does', async () => {
		const result = await runOn(simulator(), [plan()]);
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.items[0].json).length).toBeGreaterThan(10);
		expect(result.items[0].json).toHaveProperty('purpose');
	});

	test('Simplified gives a module item at most ten fields, the ones a generation needs', async () => {
		const result = await runOn(simulator(), [plan({ output: 'simplified' })]);
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
		const result = await runOn(simulator(), [
			plan({ output: 'selected', outputFields: ['target_size'] }),
		]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({ module: 'hero', target_size: '1464x600' });
	});

	test('Simplified keeps at most ten fields after a store product’s fields', async () => {
		await expectAtMostTenFields(simulator(), [storePlanNode('simplified')]);
	});
});

describe('Plan Details', () => {
	test('a plan sends the description typed below, and the platform, market and language of Plan Details', async () => {
		const result = await runOn(simulator(), [
			plan({
				modules: ['core'],
				planDetails: {
					market: { value: { market: 'custom', customMarket: 'be' } },
					language: { value: { language: 'de-DE' } },
				},
			}),
		]);
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
		const result = await runOn(simulator(), [
			plan({
				modules: ['core'],
				planDetails: { platform: { value: { platform: 'custom', customPlatform: 'walmart' } } },
			}),
		]);
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.platform).toBe('walmart');
	});
});
