import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { photoUrls as urls } from '../../harness/operations';

// Version 1's A+ Plan → Create: Product Description, Platform, Market and Language at the top of
// the panel, the whole plan as one item unless One Item per Module is on, and its labels.

const simulator = useSimulator();
const analyze = () => ({
	typeVersion: 1,
	parameters: {
		resource: 'analysis',
		operation: 'analyze',
		productName: 'Trail Bottle',
		imageUrls: urls(2),
	},
});
const plan = (extra: Record<string, unknown> = {}) => ({
	typeVersion: 1,
	parameters: {
		resource: 'aPlusPlan',
		operation: 'create',
		productDescription: 'Insulated bottle',
		imageUrls: urls(1),
		modules: ['hero', 'size', 'compare'],
		platform: 'amazon',
		market: 'us',
		language: 'en-US',
		...extra,
	},
});
describe.each([true, false])('results inside data: %s', (resultsInData) => {
	test('a plan outputs modules, global_style and notes', async () => {
		const sim = simulator();
		sim.configure({ resultsInData });
		const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [plan()] });

		expect(result.error).toBeUndefined();
		const json = result.items[0].json as {
			modules: Array<{ recommended_prompt: string }>;
			global_style: unknown;
			notes: unknown;
		};
		expect(json.modules).toHaveLength(3);
		expect(json.modules.every((module) => module.recommended_prompt.length > 0)).toBe(true);
		expect(json.global_style).toBeTruthy();
		expect(json.notes).toBeTruthy();
	});
});

test.each([
	[{ market: 'USA' }, "'Market': must be a two-letter market code, such as US [item 0]"],
	[{ language: 'english!' }, "'Language': must be a language code such as en-US or zh-CN [item 0]"],
	[{ language: '1en' }, "'Language': must be a language code such as en-US or zh-CN [item 0]"],
	[{ imageUrls: '' }, 'at least 1 image is needed'],
])('plan parameters %j are refused before any request', async (parameters, message) => {
	const sim = simulator();
	const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [plan(parameters)] });

	expect(result.error?.message).toContain(message);
	expect(sim.stats.requests).toHaveLength(0);
});

describe('Platform, Market and Language, as the plan request sends them', () => {
	const sentTarget = async (parameters: Record<string, unknown>) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [plan(parameters)],
		});
		expect(result.error).toBeUndefined();
		const plans = sim.stats.requests.filter((request) => request.route === 'plan');
		expect(plans).toHaveLength(1);
		return plans[0].planTarget;
	};

	test('left empty, they are left out of the request for the service to choose', async () => {
		expect(await sentTarget({ platform: '', market: '', language: '' })).toEqual({});
	});

	test('a Platform of spaces is left out', async () => {
		expect(await sentTarget({ platform: '   ' })).toEqual({ market: 'US', language: 'en-US' });
	});

	test('a Platform typed with spaces around is sent without them', async () => {
		expect(await sentTarget({ platform: ' amazon ' })).toEqual({
			platform: 'amazon',
			market: 'US',
			language: 'en-US',
		});
	});

	test('Market and Language typed with spaces around and in any case are sent as the spec writes them', async () => {
		expect(await sentTarget({ market: ' de ', language: ' DE-de ' })).toEqual({
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
			expect(await sentTarget({ language })).toMatchObject({ language: sent });
		},
	);
});

// Every field of a plan request the service may refuse, in words that name it (the simulator's
// own checks pass what the node sends: these are the refusals of a service with stricter rules),
// and the label version 1 shows for it.
test.each([
	['modules', 'modules[2] is not offered for this market', 'Modules'],
	[
		'product_description',
		'product_description must be at most 5000 characters',
		'Product Description',
	],
	['image_urls', 'image_urls[0] could not be fetched', 'Image URLs'],
	['platform', 'platform must be one of amazon', 'Platform'],
	['market', 'market XX is not supported', 'Market'],
	['language', 'language must be one of en-US, de-DE', 'Language'],
])('a refused %s ("%s") names %s, the field it came from', async (_field, said, label) => {
	const sim = simulator();
	sim.addFault({ route: 'plan', status: 400, message: said });
	const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [plan()] });

	expect(result.error?.message).toBe('The service refused the A+ plan request [item 0]');
	expect(result.error?.description).toContain(
		`The service refused '${label}'. Change it and run the item again; nothing was billed.`,
	);
	expect(sim.stats.byRoute.plan).toBe(1);
});

test('Analyze feeds A+ Plan: formattedText becomes the product description', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			analyze(),
			plan({ productDescription: '={{ $json.formattedText }}', options: { splitModules: true } }),
		],
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(3);
	expect(sim.stats.byRoute.analysis).toBe(1);
	expect(sim.stats.byRoute.plan).toBe(1);
});
