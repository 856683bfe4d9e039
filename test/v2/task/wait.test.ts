import { readPngInfo } from '../../simulator';
import { pairedIndexes } from '../../harness/fixtures';
import { binaryBytes } from '../../harness/engine';
import { useSimulator } from '../../harness/simulator';
import {
	expectAtMostTenFields,
	runOn,
	storePlanNode,
	taskWaitNode,
} from '../../harness/operations';

const simulator = useSimulator();

const submit = { parameters: { resource: 'image', operation: 'generate', prompt: 'a mug' } };

test('task/wait resumes a known task and downloads its images like Generate and Wait', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runOn(sim, [
		submit,
		taskWaitNode({}, { outputFiles: { value: { binaryPropertyName: 'image' } } }),
	]);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2);
	expect(pairedIndexes(result.items)).toEqual([0, 0]);
	const png = readPngInfo(await binaryBytes(result, result.items[1], 'image'));
	expect(png.width).toBe(png.height);
	expect(sim.stats.submitsAccepted).toBe(1);
});

test('Selected Fields outputs the fields chosen of each image item, and the task ID', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runOn(sim, [
		submit,
		taskWaitNode(
			{ output: 'selected', outputFields: ['status', 'image_index'] },
			{ outputFiles: { value: { downloadImages: false } } },
		),
	]);

	expect(result.error).toBeUndefined();
	const [taskId] = [...sim.tasks.keys()];
	expect(result.items.map((item) => item.json)).toEqual([
		{ task_id: taskId, status: 'succeeded', image_index: 0 },
		{ task_id: taskId, status: 'succeeded', image_index: 1 },
	]);
});

test('Simplified keeps at most ten fields after a store product and its A+ module', async () => {
	await expectAtMostTenFields(simulator(), [
		storePlanNode('raw'),
		{
			parameters: {
				resource: 'image',
				operation: 'generate',
				prompt: '={{ $json.recommended_prompt }}',
			},
		},
		taskWaitNode({ output: 'simplified' }),
	]);
});
