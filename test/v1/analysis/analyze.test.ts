import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { analyzeNode, photoUrls as urls } from '../../harness/operations';
import {
	expectAnalysisWithoutProduct,
	expectRefusedBeforeAnyRequest,
} from '../../harness/versionCases';

// Version 1's Analyze: Product Name at the top of the panel, both image inputs read together (and
// named together), and the brief under both formattedText and output_text.

const simulator = useSimulator();

const analyze = (extra: Record<string, unknown> = {}) => analyzeNode(extra, 1);

test('analysis outputs analysis, formattedText and output_text alike', async () => {
	const sim = simulator();
	const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [analyze()] });

	expect(result.error).toBeUndefined();
	const json = result.items[0].json as { formattedText: string; output_text: string };
	expect(json.formattedText.length).toBeGreaterThan(0);
	expect(json.output_text).toBe(json.formattedText);
	expect((result.items[0].json.analysis as { product_name: string }).product_name).toBe(
		'Trail Bottle',
	);
});

test.each([
	[0, 'at least 1 image is needed, 0 given'],
	[17, 'at most 16 images are allowed, 17 given'],
])('analysis with %i images is refused before any request', async (count, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), analyze({ imageUrls: urls(count) }), [
		"'Image URLs' and 'Input Binary Fields'",
		message,
	]);
});

test('the store item’s fields are not carried', async () => {
	await expectAnalysisWithoutProduct(simulator(), {
		typeVersion: 1,
		parameters: { resource: 'analysis', operation: 'analyze', imageUrls: '={{ $json.images }}' },
	});
});
