import type { INodeParameters } from 'n8n-workflow';

import { useSimulator } from '../../harness/simulator';
import { quickWaiting, runOn, taskWaitNode } from '../../harness/operations';

// The options no other suite of Wait for Completion sets, each seen in what the items hold.

const simulator = useSimulator();

const submit = { parameters: { resource: 'image', operation: 'generate', prompt: 'a mug' } };

/** Task → Wait for Completion of the submitted task, with its Waiting `settings` and `options`. */
const wait = (settings: INodeParameters, options: INodeParameters = {}) =>
	taskWaitNode({}, { ...quickWaiting(settings), ...options });

test('One Item per Task with Items in Parallel 1: each task on one item, its images in `images`, in input order', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runOn(
		sim,
		[
			submit,
			wait(
				{ polling: 'fixed', maxWaitTime: 30 },
				{ maxConcurrency: 1, outputFiles: { value: { imagesOutput: 'together' } } },
			),
		],
		[{ json: { n: 1 } }, { json: { n: 2 } }],
	);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.task_id)).toEqual([...sim.tasks.keys()]);
	for (const item of result.items) expect(item.json.images).toHaveLength(2);
});

test('On Timeout → Output Task State hands on a task that has not finished by Max Wait Time', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await runOn(sim, [
		submit,
		wait({ maxWaitTime: 0.3, onTimeout: 'outputTaskState' }),
	]);

	expect(result.error).toBeUndefined();
	const [taskId] = [...sim.tasks.keys()];
	expect(result.items[0].json).toMatchObject({ task_id: taskId, timed_out: true });
});
