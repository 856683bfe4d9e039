import { useSimulator } from '../../harness/simulator';
import { runOn } from '../../harness/operations';

// The options and input forms no other suite of Submit Generation sets, each seen in the request.

const simulator = useSimulator();

const generate = (parameters: Record<string, unknown>) => ({
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', ...parameters },
});

test.each([
	[{ resolution: '4k' }, { resolution: '4k' }],
	[
		{ size: 'custom', customSize: '61:25', resolution: 'custom', customResolution: '2K' },
		{ size: '61:25', resolution: '2k' },
	],
	[
		{
			productDetails: {
				outputLanguage: { value: { outputLanguage: 'custom', customOutputLanguage: 'de-at' } },
			},
			options: { submitTimeout: 30 },
		},
		{ output_language: 'de-at' },
	],
])('%j sends %j', async (parameters, sent) => {
	const sim = simulator();
	const result = await runOn(sim, [generate(parameters)]);

	expect(result.error).toBeUndefined();
	expect(sim.tasks.get(String(result.items[0].json.task_id))?.body).toMatchObject(sent);
});
