import { readPngInfo } from '../simulator';
import { binaryBytes, runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';

const simulator = useSimulator();

test('generate and wait produces a PNG through the engine', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt: 'a bottle',
					size: '16:9',
					options: { initialDelay: 0, pollInterval: 0.1 },
				},
			},
		],
	});
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const png = readPngInfo(await binaryBytes(result, result.items[0]));
	expect(png.width / png.height).toBeCloseTo(16 / 9, 1);
});
