import type { INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';

// Node version 2's lists: a chosen value is sent as the spec shows it, Other sends what is typed,
// Service Default sends nothing; a bad value is refused before any request.

const simulator = useSimulator();

const submit = (parameters: INodeParameters = {}) => ({
	typeVersion: 2,
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', ...parameters },
});

const plan = (parameters: INodeParameters = {}) => ({
	name: 'Plan',
	typeVersion: 2,
	parameters: {
		resource: 'aPlusPlan',
		operation: 'create',
		imageUrls: 'https://img.test/bottle.jpg',
		modules: ['core'],
		...parameters,
	},
});

const onlyBody = (sim: ReturnType<typeof simulator>) => {
	const bodies = [...sim.tasks.values()].map((task) => task.body);
	expect(bodies).toHaveLength(1);
	return bodies[0];
};

test('the defaults send 1:1 and 1k and leave platform and output language to the service', async () => {
	const sim = simulator();
	const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [submit()] });

	expect(result.error).toBeUndefined();
	const body = onlyBody(sim);
	expect(body).toMatchObject({ size: '1:1', resolution: '1k', prompt: 'studio shot' });
	expect(body).not.toHaveProperty('output_language');
	expect(body).not.toHaveProperty('product_info');
});

test('values chosen from the lists are sent as listed', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			submit({ size: '16:9', resolution: '2k', platform: 'shopify', outputLanguage: 'zh-cn' }),
		],
	});

	expect(result.error).toBeUndefined();
	expect(onlyBody(sim)).toMatchObject({
		size: '16:9',
		resolution: '2k',
		product_info: { platform: 'shopify' },
		output_language: 'zh-cn',
	});
});

test('Other sends the typed value, in the casing the spec shows', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			submit({
				size: 'custom',
				customSize: '61:25',
				resolution: 'custom',
				customResolution: '4K',
				platform: 'custom',
				customPlatform: 'zalando',
				outputLanguage: 'custom',
				customOutputLanguage: 'cs-CZ',
			}),
		],
	});

	expect(result.error).toBeUndefined();
	expect(onlyBody(sim)).toMatchObject({
		size: '61:25',
		resolution: '4k',
		product_info: { platform: 'zalando' },
		output_language: 'cs-cz',
	});
});

test('an expression in a list field is taken as its value', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [submit({ size: '={{ $json.ratio }}' })],
		input: [{ json: { ratio: '4:5' } }],
	});

	expect(result.error).toBeUndefined();
	expect(onlyBody(sim).size).toBe('4:5');
});

test.each([
	[{ size: 'custom', customSize: 'HD' }, "'Size'"],
	[{ size: 'custom', customSize: '' }, "'Size'"],
	[{ resolution: 'custom', customResolution: '' }, "'Resolution'"],
])('a bad typed value is refused before any request: %j', async (parameters, says) => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [submit(parameters)],
	});

	expect(result.error?.message).toContain(says);
	expect(sim.stats.requests).toHaveLength(0);
});

test('the plan sends market and language in the spec’s casing, from the lists or typed', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			plan({
				platform: 'amazon',
				market: 'custom',
				customMarket: 'be',
				language: 'custom',
				customLanguage: 'NL-be',
			}),
		],
	});

	expect(result.error).toBeUndefined();
	// The simulator writes the plan's language into each prompt and its market into the style guide.
	expect(String(result.items[0].json.recommended_prompt)).toContain('copy in nl-BE');
	expect(String(result.items[0].json.global_style)).toContain('market BE');
	expect(result.items[0].json).toMatchObject({
		market: 'BE',
		language: 'nl-BE',
		platform: 'amazon',
	});
});

test('Service Default sends no platform, market or language: the plan says what the service chose', async () => {
	const sim = simulator();
	const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [plan()] });

	expect(result.error).toBeUndefined();
	expect(result.items[0].json).not.toHaveProperty('platform');
	expect(result.items[0].json).not.toHaveProperty('market');
	expect(result.items[0].json).not.toHaveProperty('language');
});

test('a bad typed market is refused before any request', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ market: 'custom', customMarket: 'USA' })],
	});

	expect(result.error?.message).toContain("'Market'");
	expect(sim.stats.requests).toHaveLength(0);
});

describe('Product Description', () => {
	test("empty: the input item's analysis brief is planned from", async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [plan()],
			input: [{ json: { formattedText: 'Trail bottle, 750 ml, steel\nKeeps cold 24 h' } }],
		});

		expect(result.error).toBeUndefined();
		expect(String(result.items[0].json.recommended_prompt)).toContain(
			'for Trail bottle, 750 ml, steel:',
		);
	});

	test("a store's HTML is sent as text", async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				plan({
					productDescription:
						'<p>Steel <b>bottle</b> &amp; lid&nbsp;&#8211; 750&nbsp;ml</p><ul><li>Cold 24 h</li></ul>',
				}),
			],
		});

		expect(result.error).toBeUndefined();
		expect(String(result.items[0].json.recommended_prompt)).toContain(
			'for Steel bottle & lid – 750 ml:',
		);
	});

	test('version 1 sends what it is given, HTML included, and ignores the input brief', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					...plan({ productDescription: '<p>Steel bottle</p>', options: { splitModules: true } }),
					typeVersion: 1,
				},
			],
			input: [{ json: { formattedText: 'brief' } }],
		});

		expect(result.error).toBeUndefined();
		expect(String(result.items[0].json.recommended_prompt)).toContain('for <p>Steel bottle</p>:');
	});
});
