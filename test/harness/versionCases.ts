import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../simulator';
import type { NodeSpec } from './engine';
import { photoItem } from './fixtures';
import { FIVE_ITEMS, generateAndWaitNode, runOn, submittingNode } from './operations';

// Cases the suites of both node versions run: each version's suite passes what differs (its node,
// its expected names) and the check is written once.

/** Include Other Input Fields on: the product on each image item, the node's own fields winning. */
export async function expectProductOnEachImage(sim: Simulator, typeVersion: number) {
	sim.configure({ imagesPerTask: 2 });
	const input = [
		{ json: { id: 101, title: 'Trail Bottle', task_id: 'from-input' } },
		{ json: { id: 102, title: 'Camp Mug' } },
	];
	const result = await runOn(
		sim,
		[generateAndWaitNode({ includeOtherFields: true }, typeVersion)],
		input,
	);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => [item.json.id, item.json.title])).toEqual([
		[101, 'Trail Bottle'],
		[101, 'Trail Bottle'],
		[102, 'Camp Mug'],
		[102, 'Camp Mug'],
	]);
	expect(result.items[0].json.task_id).not.toBe('from-input');
	expect(sim.tasks.has(String(result.items[0].json.task_id))).toBe(true);
}

/** Without Product Name, each item's file is named as `names` says, a text exactly, a pattern by match. */
export async function expectFileNames(
	sim: Simulator,
	typeVersion: number,
	options: INodeParameters,
	input: INodeExecutionData[],
	names: ReadonlyArray<string | RegExp>,
) {
	const result = await runOn(sim, [generateAndWaitNode(options, typeVersion)], input);

	expect(result.error).toBeUndefined();
	result.items.forEach((item, index) => {
		const name = names[index];
		if (typeof name === 'string') expect(item.binary?.data.fileName).toBe(name);
		else expect(item.binary?.data.fileName).toMatch(name);
	});
}

/** The generated items carry none of the input's fields (its title among them). */
export async function expectNoProductFields(
	sim: Simulator,
	typeVersion: number,
	options: INodeParameters,
	input: INodeExecutionData[],
) {
	const result = await runOn(sim, [generateAndWaitNode(options, typeVersion)], input);
	expect(result.error).toBeUndefined();
	expect(result.items[0].json).not.toHaveProperty('title');
}

/** Max Generations per Run left empty, or given nothing by its expression, is no limit. */
export async function expectNoGenerationLimit(
	sim: Simulator,
	typeVersion: number,
	maxGenerations: string,
) {
	const result = await runOn(
		sim,
		[submittingNode({ maxGenerations }, { typeVersion })],
		FIVE_ITEMS,
	);

	expect(result.error).toBeUndefined();
	expect(sim.stats.submitsAccepted).toBe(5);
}

/** Analysis → Analyze of a store item's photos: the analysis, none of the item's fields. */
export async function expectAnalysisWithoutProduct(sim: Simulator, node: NodeSpec) {
	const amazonItem = {
		json: { asin: 'B0TRAIL01', title: 'Trail Bottle', images: ['https://img.test/bottle.jpg'] },
	};
	const result = await runOn(sim, [node], [amazonItem]);
	expect(result.error).toBeUndefined();
	expect(result.items[0].json.asin).toBeUndefined();
	expect(result.items[0].json.formattedText).toBeDefined();
}

/** The photos, texts and choices both versions' spec-body tests set, in each version's form. */
export const SPEC_URLS = 'https://cdn.example.com/a.jpg,\nhttps://cdn.example.com/b.jpg';
export const SPEC_EXTRA = '{"plan_prompt": "hero shot", "series_style_guide": "calm blue"}';

/** Submit Generation sends the body the spec shows and outputs task_id and status without waiting. */
export async function expectSpecBody(sim: Simulator, node: NodeSpec) {
	const result = await runOn(sim, [node]);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const { task_id: taskId, status } = result.items[0].json;
	expect(status).toBe('submitted');
	expect(sim.tasks.get(String(taskId))?.body).toEqual({
		prompt: 'studio shot',
		image_urls: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'],
		product_info: { name: 'Steel bottle', sellingPoints: 'Cold 24 h', platform: 'amazon' },
		size: '4:3',
		resolution: '2k',
		output_language: 'en-us',
		plan_prompt: 'hero shot',
		series_style_guide: 'calm blue',
	});
	expect(sim.stats.byRoute.task ?? 0).toBe(0);
}

/** A listed image URL first, then the input's files 'front' and 'side' uploaded and sent. */
export async function expectUrlThenUploads(sim: Simulator, node: NodeSpec) {
	const result = await runOn(sim, [node], [photoItem(['front', 'side'])]);

	expect(result.error).toBeUndefined();
	const body = sim.tasks.get(String(result.items[0].json.task_id))?.body as {
		image_urls: string[];
		prompt?: string;
	};
	expect(body.prompt).toBeUndefined();
	expect(body.image_urls).toHaveLength(3);
	expect(body.image_urls[0]).toBe('https://x.test/1.png');
	expect(
		body.image_urls.slice(1).every((url) => url.startsWith(`${sim.baseUrl}/v1/open/media/`)),
	).toBe(true);
	expect(sim.stats.byRoute.upload).toBe(2);
}

/** The run stops with each of `messages` in its error before any request reaches the service. */
export async function expectRefusedBeforeAnyRequest(
	sim: Simulator,
	node: NodeSpec,
	messages: string | string[],
	input?: INodeExecutionData[],
) {
	const result = await runOn(sim, [node], input);
	for (const message of [messages].flat()) expect(result.error?.message).toContain(message);
	expect(sim.stats.requests).toHaveLength(0);
	return result;
}

/** A plan (its three modules on one item) outputs modules with their prompts, global_style and notes. */
export async function expectWholePlan(sim: Simulator, node: NodeSpec) {
	const result = await runOn(sim, [node]);

	expect(result.error).toBeUndefined();
	const json = result.items[0].json as {
		modules: Array<{ recommended_prompt: string }>;
		global_style: unknown;
		notes: unknown;
	};
	expect(json.modules).toHaveLength(3);
	expect(json.modules.every((module) => module.recommended_prompt.length > 0)).toBe(true);
	expect(json.global_style).toBeTruthy();
	expect(json.notes).toBeTruthy();
}

/** The platform, market and language the one plan request of `node` sent. */
export async function sentPlanTarget(sim: Simulator, node: NodeSpec) {
	const result = await runOn(sim, [node]);
	expect(result.error).toBeUndefined();
	const plans = sim.stats.requests.filter((request) => request.route === 'plan');
	expect(plans).toHaveLength(1);
	return plans[0].planTarget;
}

/**
 * Every field of a plan request the service may refuse, in words that name it (the simulator's own
 * checks pass what the node sends: these are the refusals of a service with stricter rules), and
 * the label both versions show for it.
 */
export const PLAN_REFUSALS = [
	['modules', 'modules[2] is not offered for this market', 'Modules'],
	[
		'product_description',
		'product_description must be at most 5000 characters',
		'Product Description',
	],
	['image_urls', 'image_urls[0] could not be fetched', 'Image URLs'],
	['platform', 'platform must be one of amazon', 'Platform'],
	['market', 'market XX is not supported', 'Market'],
	['language', 'language must be one of en-US, de-DE', 'Language'],
];

/** The service refuses `said` of the plan request: the error names `label`, nothing was billed. */
export async function expectPlanRefusalNamed(
	sim: Simulator,
	node: NodeSpec,
	said: string,
	label: string,
) {
	sim.addFault({ route: 'plan', status: 400, message: said });
	const result = await runOn(sim, [node]);

	expect(result.error?.message).toBe('The service refused the A+ plan request [item 0]');
	expect(result.error?.description).toContain(
		`The service refused '${label}'. Change it and run the item again; nothing was billed.`,
	);
	expect(sim.stats.byRoute.plan).toBe(1);
}

/** Analyze, then A+ Plan of three modules an item each: one request of each, the brief taken over. */
export async function expectAnalyzeFeedsPlan(sim: Simulator, nodes: NodeSpec[]) {
	const result = await runOn(sim, nodes);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(3);
	expect(sim.stats.byRoute.analysis).toBe(1);
	expect(sim.stats.byRoute.plan).toBe(1);
}
