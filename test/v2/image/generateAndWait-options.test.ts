import { photoItem } from '../../harness/fixtures';
import { useSimulator } from '../../harness/simulator';
import { generateAndWaitNode, quickWaiting, runOn } from '../../harness/operations';
import { runOnVirtualClock } from '../../harness/virtualClock';
import { requestsOn } from '../../faults/faultCase';

// The options and input forms no other suite of Generate and Wait sets, each seen in what the
// request carries or what the item holds.

const simulator = useSimulator();

test('images from URLs and files, 4K, every Product Details field, Other Service Fields, a Submit Timeout and a limit', async () => {
	const sim = simulator();
	const result = await runOn(
		sim,
		[
			generateAndWaitNode(
				{
					submitTimeout: 30,
					maxGenerations: 1,
					extraBodyFields: '{"series_style_guide": "calm blue"}',
				},
				undefined,
				{
					prompt: 'studio shot',
					imageSource: 'both',
					imageUrls: 'https://img.test/a.jpg',
					inputBinaryFields: 'data',
					resolution: '4k',
					productDetails: {
						productName: 'Trail Bottle',
						sellingPoints: 'Cold for 24 hours',
						platform: { value: { platform: 'custom', customPlatform: 'zalando' } },
						outputLanguage: { value: { outputLanguage: 'custom', customOutputLanguage: 'de-at' } },
					},
				},
			),
		],
		[photoItem()],
	);

	expect(result.error).toBeUndefined();
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({
		resolution: '4k',
		product_info: { name: 'Trail Bottle', sellingPoints: 'Cold for 24 hours', platform: 'zalando' },
		output_language: 'de-at',
		series_style_guide: 'calm blue',
	});
	const urls = task.body.image_urls as string[];
	expect(urls[0]).toBe('https://img.test/a.jpg');
	expect(urls).toHaveLength(2);
	expect(sim.stats.byRoute.upload).toBe(1);
	expect(result.items[0].json.status).toBe('succeeded');
});

test("from an A+ module, Module Prompt and Style Guide replace the module item's prompt and the plan's style guide", async () => {
	const sim = simulator();
	const result = await runOn(
		sim,
		[
			generateAndWaitNode(
				{ planPrompt: 'Bottle on a trail at dawn', seriesStyleGuide: 'Warm light, muted greens' },
				undefined,
				{ generationSource: 'aPlusModule', prompt: undefined },
			),
		],
		[
			{
				json: {
					module: 'core',
					recommended_prompt: 'Trail bottle on a rock',
					aspect_ratio: '97:60',
					target_width: 970,
					target_height: 600,
					global_style: 'calm blue',
				},
			},
		],
	);

	expect(result.error).toBeUndefined();
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({
		prompt: 'Trail bottle on a rock',
		plan_prompt: 'Bottle on a trail at dawn',
		series_style_guide: 'Warm light, muted greens',
	});
	expect(result.items[0].json.module).toBe('core');
});

test('Fixed Interval polling with On Timeout → Output Task State hands on the unfinished task', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await runOnVirtualClock(() =>
		runOn(sim, [
			generateAndWaitNode(
				quickWaiting({
					polling: 'fixed',
					pollInterval: 5,
					maxWaitTime: 20,
					onTimeout: 'outputTaskState',
				}),
				undefined,
				{ prompt: 'studio shot' },
			),
		]),
	);

	expect(result.error).toBeUndefined();
	const [taskId] = [...sim.tasks.keys()];
	expect(result.items[0].json).toMatchObject({ task_id: taskId, timed_out: true });
	// On the virtual clock: a check every 5 s from the submit, the last one at Max Wait Time.
	const submittedAt = requestsOn(sim, 'submit')[0].at;
	const checks = requestsOn(sim, 'task').map((check) => check.at - submittedAt);
	expect(checks).toEqual([0, 5_000, 10_000, 15_000, 20_000]);
});
