import type { Simulator } from '../simulator';
import { runWorkflow } from './engine';
import { credentialsFor } from './simulator';

// Nodes several suites start from, written once: an operation's suite and the suites of the
// operations that follow it in a workflow build them alike.

/** `count` photo URLs, one per line, as a user pastes them. */
export const photoUrls = (count: number) =>
	Array.from({ length: count }, (_, index) => `https://img.test/${index}.jpg`).join('\n');

/** Analysis → Analyze of two photos of the Trail Bottle. */
export const analyzeNode = (extra: Record<string, unknown> = {}) => ({
	parameters: {
		resource: 'analysis',
		operation: 'analyze',
		productDetails: { productName: 'Trail Bottle' },
		imageUrls: photoUrls(2),
		...extra,
	},
});

/** The URL of an image the simulator generated: what a user drags into Image → Download. */
export async function generatedImageUrl(sim: Simulator, prompt = 'x'): Promise<string> {
	const seeded = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt,
					options: {
						waiting: { value: { initialDelay: 0, pollInterval: 0.1 } },
						outputFiles: { value: { downloadImages: false } },
					},
				},
			},
		],
	});
	return String(seeded.items[0].json.url);
}
