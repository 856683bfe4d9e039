import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';

// The hint above the output speaks only of what the chosen Output holds.

const simulator = useSimulator();

const run = async (output: Record<string, unknown>) => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 30 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: 2,
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt: 'A bottle',
					...output,
					options: { waiting: { value: { initialDelay: 0, pollInterval: 0.1 } } },
				},
			},
		],
		input: [{ json: { id: 101, title: 'Trail Bottle' } }],
	});
	const hints = (result.run.data.resultData.runData['Product Image']?.[0]?.hints ?? []).map(
		(hint) => hint.message,
	);
	return { item: result.items[0], hints };
};

test("with Simplified the hint names neither 'expires_at' nor a field the item does not hold", async () => {
	const { item, hints } = await run({ output: 'simplified' });

	expect(item.json.expires_at).toBeUndefined();
	const handOver = hints.find((hint) => hint.startsWith('To the store'));
	expect(handOver).toBeDefined();
	expect(handOver).not.toContain('expires_at');
	for (const quoted of (handOver ?? '').matchAll(/'([a-z_]+)'/g))
		expect(Object.keys({ ...item.json, ...item.binary })).toContain(quoted[1]);
});

test('with Raw it still names the file, the URL and when it expires', async () => {
	const { hints } = await run({});

	expect(hints).toContain(
		"To the store: the file in 'data' to upload (as the Shopify example does), or 'url' for a store that fetches images by URL until 'expires_at' (3 days). After an Edit Image resize, 'generated_width' and 'generated_height' still give the generated size, not the fitted one.",
	);
});
