import { runWorkflow } from '../../harness/engine';
import { photoUrls } from '../../harness/operations';
import { credentialsFor, useSimulator } from '../../harness/simulator';

// What a person confirms before the analysis reaches a plan: the inferred facts first.
const simulator = useSimulator();

async function analyze(configure: Record<string, unknown> = {}) {
	const sim = simulator();
	sim.configure(configure);
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: 2,
				parameters: {
					resource: 'analysis',
					operation: 'analyze',
					imageUrls: photoUrls(2),
					productDetails: { productName: 'Trail Bottle' },
				},
			},
		],
	});
	expect(result.error).toBeUndefined();
	return result.items[0].json;
}

const valueOf = (json: Record<string, unknown>, name: string) =>
	(json.analysis as { attributes: Array<{ name: string; value: string }> }).attributes.find(
		(attribute) => attribute.name === name,
	)?.value;

const brief = (json: Record<string, unknown>, material: string, materialEvidence: string) =>
	[
		'Brief:',
		'Trail Bottle',
		`Category: ${String((json.analysis as { category: string }).category)}`,
		'',
		'Attributes',
		`color: ${valueOf(json, 'color')} (visible)`,
		`material: ${material} (${materialEvidence})`,
		'brand: Trail Bottle (provided)',
		'',
		'Selling points',
		`Durable ${material} construction`,
		`Clean ${valueOf(json, 'color')} finish that suits most settings`,
		'Compact, easy to store and carry',
		'',
		'Analyzed 2 image(s). Confirm inferred attributes before use.',
	].join('\n');

test('an inferred fact is listed, counted and put first in the review text, before what was seen and the brief', async () => {
	const json = await analyze();
	const material = String(valueOf(json, 'material'));

	expect(json.facts_to_confirm).toEqual([{ name: 'material', value: material }]);
	expect(json.facts_to_confirm_count).toBe(1);
	expect(json.review_text).toBe(
		[
			'Confirm before use: 1 fact the service inferred from the photos.',
			`- material: ${material}`,
			'',
			'Seen in the photos or provided:',
			`- color: ${valueOf(json, 'color')} (visible)`,
			'- brand: Trail Bottle (provided)',
			'',
			brief(json, material, 'inferred'),
		].join('\n'),
	);
	// Beside the service's analysis, which keeps every attribute and its evidence.
	expect(Object.keys(json)).toEqual([
		'analysis',
		'formattedText',
		'request_id',
		'facts_to_confirm',
		'facts_to_confirm_count',
		'review_text',
	]);
});

test('an analysis with nothing inferred says so, with a count of 0 a workflow can skip the person on', async () => {
	const json = await analyze({ analysisInferred: false });
	const material = String(valueOf(json, 'material'));

	expect(json.facts_to_confirm).toEqual([]);
	expect(json.facts_to_confirm_count).toBe(0);
	expect(json.review_text).toBe(
		[
			'Nothing to confirm: the service inferred no product fact.',
			'',
			'Seen in the photos or provided:',
			`- color: ${valueOf(json, 'color')} (visible)`,
			`- material: ${material} (visible)`,
			'- brand: Trail Bottle (provided)',
			'',
			brief(json, material, 'visible'),
		].join('\n'),
	);
});

test('the brief comes from output_text when the service sends only that', async () => {
	const json = await analyze({ analysisText: 'output_text' });
	expect(
		String(json.review_text).endsWith(
			'Analyzed 2 image(s). Confirm inferred attributes before use.',
		),
	).toBe(true);
});
