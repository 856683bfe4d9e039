import { photoItem } from '../../harness/fixtures';
import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { analyzeNode as analyze, photoUrls as urls, runOn } from '../../harness/operations';
import {
	expectAnalysisWithoutProduct,
	expectRefusedBeforeAnyRequest,
} from '../../harness/versionCases';
import { DEFAULT_VERSION as CURRENT } from '../../../nodes/ProductImage/descriptions/versions';

const simulator = useSimulator();
describe.each([true, false])('results inside data: %s', (resultsInData) => {
	test('analysis outputs analysis (attributes keep evidence) and formattedText, without output_text when it repeats it', async () => {
		const sim = simulator();
		sim.configure({ resultsInData });
		const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [analyze()] });

		expect(result.error).toBeUndefined();
		const json = result.items[0].json as {
			analysis: { attributes: Array<{ evidence: string }> };
			formattedText: string;
			output_text: string;
		};
		expect(json.analysis.attributes.map((attribute) => attribute.evidence)).toEqual(
			expect.arrayContaining(['visible', 'inferred', 'provided']),
		);
		expect(json.formattedText.length).toBeGreaterThan(0);
		expect(json).not.toHaveProperty('output_text');
		expect(json).not.toHaveProperty('code');
		expect((json.analysis as unknown as { product_name: string }).product_name).toBe(
			'Trail Bottle',
		);
	});
});

test('analysis sends product_name and the image addresses, uploading binary fields first', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			analyze({
				imageSource: 'both',
				imageUrls: 'https://img.test/a.jpg',
				inputBinaryFields: 'data',
			}),
		],
		input: [photoItem()],
	});

	expect(result.error).toBeUndefined();
	expect(sim.stats.byRoute.upload).toBe(1);
	expect(sim.stats.byRoute.analysis).toBe(1);
	const [upload, analysis] = sim.stats.requests;
	expect([upload.route, analysis.route]).toEqual(['upload', 'analysis']);
});

test.each([
	[0, 'at least 1 image is needed, 0 given'],
	[17, 'at most 16 images are allowed, 17 given'],
])('analysis with %i images is refused before any request', async (count, message) => {
	await expectRefusedBeforeAnyRequest(
		simulator(),
		// None given by an expression: n8n itself stops a run with the required field left empty.
		analyze({ imageUrls: count ? urls(count) : '={{ "" }}' }),
		["'Image URLs': ", message],
	);
});

test('analysis accepts exactly 16 images', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [analyze({ imageUrls: urls(16) })],
	});
	expect(result.error).toBeUndefined();
});

test('a JSON reply over the 10 MiB cap is refused, not read into memory whole', async () => {
	const sim = simulator();
	// The simulator repeats the product name across analysis, formattedText and output_text.
	const productName = 'x'.repeat(3 * 1024 * 1024);
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [analyze({ productDetails: { productName } })],
	});

	expect(result.error?.message).toBe("The service's reply was too large [item 0]");
	expect(result.error?.description).toContain('The reply was larger than any the service sends.');
	expect(sim.stats.byRoute.analysis).toBe(1);
});

test('the current version keeps an input field named like its own under input_fields', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: CURRENT,
				parameters: {
					resource: 'analysis',
					operation: 'analyze',
					imageUrls: 'https://img.test/bottle.jpg',
				},
			},
		],
		input: [{ json: { id: 8801, analysis: 'from the store', status: 'active' } }],
	});

	expect(result.error).toBeUndefined();
	const { json } = result.items[0];
	expect(typeof json.analysis).toBe('object');
	expect(json).toMatchObject({
		id: 8801,
		status: 'active',
		input_fields: { analysis: 'from the store' },
	});
});

describe('the input item’s fields and Product Details', () => {
	const fromStore = (options = {}, extra = {}) => ({
		parameters: {
			resource: 'analysis',
			operation: 'analyze',
			imageUrls: '={{ $json.images }}',
			options,
			...extra,
		},
	});

	test('Include Other Input Fields switched off: the store item’s fields are not carried', async () => {
		await expectAnalysisWithoutProduct(simulator(), fromStore({ includeOtherFields: false }));
	});

	test('Analyze sends the Product Name set in Product Details', async () => {
		const result = await runOn(simulator(), [
			fromStore(
				{},
				{
					imageUrls: 'https://img.test/bottle.jpg',
					productDetails: { productName: 'Trail Bottle' },
				},
			),
		]);
		expect(result.error).toBeUndefined();
		// The simulator answers with the product name it received.
		const analysis = result.items[0].json.analysis as { product_name?: string };
		expect(analysis.product_name).toBe('Trail Bottle');
	});
});
