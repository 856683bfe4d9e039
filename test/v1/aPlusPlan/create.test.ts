import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { analyzeNode, photoUrls as urls } from '../../harness/operations';
import {
	PLAN_REFUSALS,
	expectAnalyzeFeedsPlan,
	expectPlanRefusalNamed,
	expectRefusedBeforeAnyRequest,
	expectWholePlan,
	sentPlanTarget,
} from '../../harness/versionCases';

// Version 1's A+ Plan → Create: Product Description, Platform, Market and Language at the top of
// the panel, the whole plan as one item unless One Item per Module is on, and its labels.

const simulator = useSimulator();
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
		await expectWholePlan(sim, plan());
	});
});

test.each([
	[{ market: 'USA' }, "'Market': must be a two-letter market code, such as US [item 0]"],
	[{ language: 'english!' }, "'Language': must be a language code such as en-US or zh-CN [item 0]"],
	[{ language: '1en' }, "'Language': must be a language code such as en-US or zh-CN [item 0]"],
	[{ imageUrls: '' }, 'at least 1 image is needed'],
])('plan parameters %j are refused before any request', async (parameters, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), plan(parameters), message);
});

describe('Platform, Market and Language, as the plan request sends them', () => {
	const sentTarget = (parameters: Record<string, unknown>) =>
		sentPlanTarget(simulator(), plan(parameters));

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

// Every field of a plan request the service may refuse, and the label version 1 shows for it.
test.each(PLAN_REFUSALS)(
	'a refused %s ("%s") names %s, the field it came from',
	async (_field, said, label) => {
		await expectPlanRefusalNamed(simulator(), plan(), said, label);
	},
);

test('Analyze feeds A+ Plan: formattedText becomes the product description', async () => {
	await expectAnalyzeFeedsPlan(simulator(), [
		analyzeNode({}, 1),
		plan({ productDescription: '={{ $json.formattedText }}', options: { splitModules: true } }),
	]);
});

test('there is no Output choice: a stored value changes nothing', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			plan({ descriptionSource: 'define', output: 'simplified', options: { splitModules: true } }),
		],
	});
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toHaveProperty('purpose');
});
