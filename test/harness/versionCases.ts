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
