import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { pairedIndexes, photoItem } from '../../harness/fixtures';
import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { analyzeNode as analyze, photoUrls as urls } from '../../harness/operations';
import { SPEC_MODULES } from '../../harness/specModules';
import {
	PLAN_REFUSALS,
	expectAnalyzeFeedsPlan,
	expectPlanRefusalNamed,
	expectRefusedBeforeAnyRequest,
	expectWholePlan,
	sentPlanTarget,
} from '../../harness/versionCases';

const simulator = useSimulator();

/** A list of Plan Details: an entry of its list, or a value typed under Other. */
const listed = (name: string, value: string, typed = false) => ({
	value: typed
		? { [name]: 'custom', [`custom${name[0].toUpperCase()}${name.slice(1)}`]: value }
		: { [name]: value },
});

/** Without the entries given as undefined: a field not added to the panel. */
const defined = (values: Record<string, unknown>) =>
	Object.fromEntries(
		Object.entries(values).filter(([, value]) => value !== undefined),
	) as INodeParameters;

/** The whole plan as one item unless a test turns One Item per Module on (it is on by default). */
const plan = (extra: Record<string, unknown> = {}, planDetails: Record<string, unknown> = {}) => ({
	parameters: defined({
		resource: 'aPlusPlan',
		operation: 'create',
		descriptionSource: 'define',
		productDescription: 'Insulated bottle',
		imageUrls: urls(1),
		modules: ['hero', 'size', 'compare'],
		planDetails: defined({
			platform: listed('platform', 'amazon'),
			market: listed('market', 'US'),
			language: listed('language', 'en-US'),
			...planDetails,
		}),
		options: { splitModules: false },
		...extra,
	}),
});
describe.each([true, false])('results inside data: %s', (resultsInData) => {
	test('a plan outputs modules, global_style and notes', async () => {
		const sim = simulator();
		sim.configure({ resultsInData });
		await expectWholePlan(sim, plan());
	});
});

test('One Item per Module outputs what a following Generate node needs', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ options: { splitModules: true } })],
		input: [{ json: { sku: 'A1' } }],
	});

	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 0, 0]);
	expect(
		result.items.map((item) => [item.json.module, item.json.target_size, item.json.aspect_ratio]),
	).toEqual([
		['hero', '1464x600', '61:25'],
		['size', '220x220', '1:1'],
		['compare', '150x300', '1:2'],
	]);
	for (const item of result.items) {
		expect(String(item.json.recommended_prompt).length).toBeGreaterThan(0);
		expect(item.json.global_style).toBeTruthy();
		expect(item.json.notes).toBeTruthy();
	}
});

test('the plan asks for the chosen modules, in order', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ modules: ['care', 'hero970'] })],
	});

	expect(result.error).toBeUndefined();
	const modules = result.items[0].json.modules as Array<{ module: string }>;
	expect(modules.map((module) => module.module)).toEqual(['care', 'hero970']);
});

test('Modules from an expression as comma-separated text: each entry trimmed, empty ones dropped', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ modules: "={{ ' care ,hero970,, ' }}" })],
	});

	expect(result.error).toBeUndefined();
	const modules = result.items[0].json.modules as Array<{ module: string }>;
	expect(modules.map((module) => module.module)).toEqual(['care', 'hero970']);
});

test.each([
	[{ modules: '={{ [] }}' }, "'Modules': choose at least one module"],
	[{ modules: ['hero', 'banner'] }, 'unknown module "banner"'],
	[
		{ modules: ['banner', 'hero', 'poster'] },
		'\'Modules\': unknown module "banner", "poster"; known: hero, hero970, core, usage, angles, mood, detail, brand, size, compare, specs, process, accessories, series, ingredients, care, tips [item 0]',
	],
	// None given by an expression: n8n itself stops a run with the required field left empty.
	[{ imageUrls: '={{ "" }}' }, "'Image URLs': at least 1 image is needed"],
])('plan parameters %j are refused before any request', async (parameters, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), plan(parameters), message);
});

test.each([
	[
		{ market: listed('market', 'USA', true) },
		'must be a two-letter market code, such as US [item 0]',
	],
	[
		{ language: listed('language', 'english!', true) },
		'must be a language code such as en-US or zh-CN [item 0]',
	],
	[
		{ language: listed('language', '1en', true) },
		'must be a language code such as en-US or zh-CN [item 0]',
	],
])('Plan Details %j typed under Other are refused before any request', async (details, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), plan({}, details), message);
});

describe('Platform, Market and Language, as the plan request sends them', () => {
	const sentTarget = (parameters: Record<string, unknown>) =>
		sentPlanTarget(simulator(), plan({}, parameters));

	test("Market and Language left at the service's default are left out of the request", async () => {
		expect(
			await sentTarget({ market: listed('market', ''), language: listed('language', '') }),
		).toEqual({ platform: 'amazon' });
	});

	test('Platform not added is Amazon, the default it shows', async () => {
		expect(await sentTarget({ platform: undefined })).toEqual({
			platform: 'amazon',
			market: 'US',
			language: 'en-US',
		});
	});

	test('a Platform typed with spaces around is sent without them', async () => {
		expect(await sentTarget({ platform: listed('platform', ' amazon ', true) })).toEqual({
			platform: 'amazon',
			market: 'US',
			language: 'en-US',
		});
	});

	test('Market and Language typed with spaces around and in any case are sent as the spec writes them', async () => {
		expect(
			await sentTarget({
				market: listed('market', ' de ', true),
				language: listed('language', ' DE-de ', true),
			}),
		).toEqual({
			platform: 'amazon',
			market: 'DE',
			language: 'de-DE',
		});
	});

	test.each([
		['en', 'en'],
		['zh-Hans-cn', 'zh-Hans-CN'],
		['ES-419', 'es-419'],
	])(
		'a Language of %s (a language alone, or with a script or region) is sent as %s',
		async (language, sent) => {
			expect(await sentTarget({ language: listed('language', language, true) })).toMatchObject({
				language: sent,
			});
		},
	);
});

// Every field of a plan request the service may refuse, and the label the panel shows for it.
test.each(PLAN_REFUSALS)(
	'a refused %s ("%s") names %s, the field it came from',
	async (_field, said, label) => {
		await expectPlanRefusalNamed(simulator(), plan(), said, label);
	},
);

test('Analyze feeds A+ Plan: formattedText becomes the product description', async () => {
	await expectAnalyzeFeedsPlan(simulator(), [
		analyze(),
		plan({ descriptionSource: 'analysis', productDescription: undefined, options: {} }),
	]);
});

describe('One Item per Module: every module item carries its purpose and target size', () => {
	let items: Array<{ json: Record<string, unknown> }> = [];
	beforeAll(async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [plan({ modules: SPEC_MODULES.map(([id]) => id), options: { splitModules: true } })],
		});
		expect(result.error).toBeUndefined();
		items = result.items;
	});

	test('one item per module, in the order chosen', () => {
		expect(items.map((item) => item.json.module)).toEqual(SPEC_MODULES.map(([id]) => id));
	});

	test.each(SPEC_MODULES)('%s: %s, %i×%i', (id, purpose, width, height) => {
		const item = items.find((candidate) => candidate.json.module === id);
		expect(item?.json).toMatchObject({
			purpose,
			target_width: width,
			target_height: height,
			target_size: `${width}x${height}`,
		});
	});
});

describe('Product Description From the analysis of the input item', () => {
	const fromAnalysis = () => plan({ descriptionSource: 'analysis', productDescription: undefined });
	const brief = 'Steel bottle that keeps drinks cold for 24 hours';

	/** The product_description the plan request sent for this input item. */
	async function sentDescription(json: IDataObject): Promise<unknown> {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [fromAnalysis()],
			input: [{ json }],
		});
		expect(result.error).toBeUndefined();
		const plans = sim.stats.requests.filter((request) => request.route === 'plan');
		expect(plans).toHaveLength(1);
		return plans[0].productDescription;
	}

	test('the brief in formattedText is the description', async () => {
		expect(await sentDescription({ title: 'Trail Bottle', formattedText: brief })).toBe(brief);
	});

	test('an empty formattedText does not hide the brief in output_text, and no other text field is taken', async () => {
		expect(
			await sentDescription({
				title: 'Trail Bottle',
				handle: 'trail-bottle',
				formattedText: '',
				output_text: brief,
			}),
		).toBe(brief);
	});

	test('an item without a brief is refused before any request, whatever other text it holds', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [fromAnalysis()],
			input: [{ json: { title: 'Trail Bottle', formattedText: ' ' } }],
		});

		expect(result.error?.message).toBe(
			"'Product Description From': the input item has no brief ('formattedText' or 'output_text') of 'Analysis → Analyze' [item 0]",
		);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

test('Images From Files of the Input Item: the photos are uploaded and the plan receives their addresses', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [plan({ imageSource: 'binary', imageUrls: undefined, inputBinaryFields: 'front' })],
		input: [photoItem(['front'])],
	});

	expect(result.error).toBeUndefined();
	expect(sim.stats.byRoute.upload).toBe(1);
	const [sent] = sim.stats.requests.filter((request) => request.route === 'plan');
	expect(sent.imageUrls).toEqual([expect.stringMatching(/\/v1\/open\/media\//)]);
});

describe('Include Other Input Fields', () => {
	const perModule = (options: IDataObject) =>
		plan({ modules: ['hero', 'core'], options: { splitModules: true, ...options } });
	const product = { json: { sku: 'A1', title: 'Trail Bottle' } };

	test("on by default: every module item carries the input item's fields", async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [perModule({})],
			input: [product],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) expect(item.json).toMatchObject(product.json);
	});

	test("off: the module items carry none of the input item's fields", async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [perModule({ includeOtherFields: false })],
			input: [product],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json).not.toHaveProperty('sku');
			expect(item.json).not.toHaveProperty('title');
			expect(item.json.module).toEqual(expect.any(String));
		}
	});
});
