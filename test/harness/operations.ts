import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { DEFAULT_VERSION } from '../../nodes/ProductImage/descriptions/versions';
import type { Simulator } from '../simulator';
import { runWorkflow, type NodeSpec, type RunResult } from './engine';
import { credentialsFor } from './simulator';
import { shopifyProduct } from './storeProducts';

// Nodes several suites start from, written once: an operation's suite and the suites of the
// operations that follow it in a workflow build them alike.

/** `count` photo URLs, one per line, as a user pastes them. */
export const photoUrls = (count: number) =>
	Array.from({ length: count }, (_, index) => `https://img.test/${index}.jpg`).join('\n');

/** Analysis → Analyze of two photos of the Trail Bottle: version 1 has Product Name at the top. */
export const analyzeNode = (
	extra: Record<string, unknown> = {},
	typeVersion: number = DEFAULT_VERSION,
): NodeSpec => ({
	typeVersion,
	parameters: {
		resource: 'analysis',
		operation: 'analyze',
		...(typeVersion === 1
			? { productName: 'Trail Bottle' }
			: { productDetails: { productName: 'Trail Bottle' } }),
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

/** Runs the nodes one after another on the simulator, as a workflow of them would. */
export const runOn = (sim: Simulator, nodes: NodeSpec[], input?: INodeExecutionData[]) =>
	runWorkflow({ credentials: credentialsFor(sim), nodes, input });

/** The hints a node's run shows above its output (addExecutionHints). */
export const hintsOf = (result: RunResult, node = 'Product Image') =>
	(result.run.data.resultData.runData[node]?.[0]?.hints ?? []).map((hint) => hint.message);

/** Two store products, as a store's node hands them on. */
export const PRODUCTS = [
	{ json: { id: 101, title: 'Trail Bottle' } },
	{ json: { id: 102, title: 'Camp Mug' } },
];

const QUICK = { initialDelay: 0, pollInterval: 0.1 };

/** Options → Waiting of the current version: a wait that looks at once and then often, and `settings`. */
export const quickWaiting = (settings: INodeParameters = {}): INodeParameters => ({
	waiting: { value: { ...QUICK, ...settings } },
});

/** A wait that looks at once and then often: version 1 stores it flat, later ones in Options → Waiting. */
export const quickWait = (typeVersion: number = DEFAULT_VERSION): INodeParameters =>
	typeVersion === 1 ? QUICK : quickWaiting();

/** Task → Wait for Completion of the task the item before it holds, waiting as `quickWait`. */
export const taskWaitNode = (
	parameters: INodeParameters = {},
	options: INodeParameters = {},
): NodeSpec => ({
	parameters: {
		resource: 'task',
		operation: 'wait',
		taskId: '={{ $json.task_id }}',
		...parameters,
		options: { ...quickWait(), ...options },
	},
});

/** Image → Generate and Wait of each product by its title, waiting as `quickWait`. */
export const generateAndWaitNode = (
	options: INodeParameters = {},
	typeVersion: number = DEFAULT_VERSION,
	parameters: INodeParameters = {},
): NodeSpec => ({
	typeVersion,
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: '={{ $json.title }} on a white background',
		...parameters,
		options: { ...quickWait(typeVersion), ...options },
	},
});

/**
 * A+ Plan → Create of a store product's photos (`images`) into two modules, with `output`: the
 * module items then hold every field of their Simplified list, so one more would be an eleventh.
 */
export const storePlanNode = (output: string): NodeSpec => ({
	parameters: {
		resource: 'aPlusPlan',
		operation: 'create',
		imageUrls: '={{ $json.images }}',
		modules: ['hero', 'core'],
		output,
		descriptionSource: 'define',
		productDescription: 'Steel bottle',
		planDetails: {
			platform: { value: { platform: 'amazon' } },
			market: { value: { market: 'custom', customMarket: 'us' } },
			language: { value: { language: 'en-US' } },
		},
	},
});

/** Output → Simplified keeps at most ten fields, after a store product and its two modules' fields. */
export async function expectAtMostTenFields(sim: Simulator, nodes: NodeSpec[]) {
	const result = await runOn(sim, nodes, [{ json: shopifyProduct }]);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2);
	for (const item of result.items) expect(Object.keys(item.json).length).toBeLessThanOrEqual(10);
}

/** Five items to generate for, one more than most limits below allow. */
export const FIVE_ITEMS = Array.from({ length: 5 }, (_, index) => ({
	json: { id: index, title: `Product ${index}` },
}));

/** A node that submits `prompt` for each item, with Max Generations per Run (and any option) in `options`. */
export const submittingNode = (
	options: INodeParameters,
	{
		operation = 'generate',
		typeVersion = DEFAULT_VERSION,
		prompt = 'x',
		continueOnFail = false,
	} = {},
): NodeSpec => ({
	typeVersion,
	continueOnFail,
	parameters: { resource: 'image', operation, prompt, options },
});
