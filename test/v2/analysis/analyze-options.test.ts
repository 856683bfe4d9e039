import { photoItem } from '../../harness/fixtures';
import { useSimulator } from '../../harness/simulator';
import { runOn } from '../../harness/operations';

// The options and input form no other suite of Analyze sets, each seen in the requests.

const simulator = useSimulator();

test('Images From Files of the Input Item, with Items in Parallel and a Timeout: the files are uploaded and analyzed', async () => {
	const sim = simulator();
	const result = await runOn(
		sim,
		[
			{
				parameters: {
					resource: 'analysis',
					operation: 'analyze',
					imageSource: 'binary',
					inputBinaryFields: 'front, side',
					options: { maxConcurrency: 1, timeout: 60 },
				},
			},
		],
		[photoItem(['front', 'side']), photoItem(['front', 'side'])],
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2);
	expect(sim.stats.byRoute.upload).toBe(4);
	expect(sim.stats.byRoute.analysis).toBe(2);
	expect(result.items[0].json.formattedText).toEqual(expect.any(String));
});
