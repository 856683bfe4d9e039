import { readPngInfo } from '../../simulator';
import { pairedIndexes } from '../../harness/fixtures';
import { binaryBytes, runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';

const simulator = useSimulator();

const submit = { parameters: { resource: 'image', operation: 'generate', prompt: 'a mug' } };

test('task/wait resumes a known task and downloads its images like Generate and Wait', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			submit,
			{
				parameters: {
					resource: 'task',
					operation: 'wait',
					taskId: '={{ $json.task_id }}',
					options: {
						waiting: { value: { initialDelay: 0, pollInterval: 0.1 } },
						outputFiles: { value: { binaryPropertyName: 'image' } },
					},
				},
			},
		],
	});

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
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			submit,
			{
				parameters: {
					resource: 'task',
					operation: 'wait',
					taskId: '={{ $json.task_id }}',
					output: 'selected',
					outputFields: ['status', 'image_index'],
					options: {
						waiting: { value: { initialDelay: 0, pollInterval: 0.1 } },
						outputFiles: { value: { downloadImages: false } },
					},
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	const [taskId] = [...sim.tasks.keys()];
	expect(result.items.map((item) => item.json)).toEqual([
		{ task_id: taskId, status: 'succeeded', image_index: 0 },
		{ task_id: taskId, status: 'succeeded', image_index: 1 },
	]);
});
