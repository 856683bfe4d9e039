import type { INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine';
import { currentVersionOptions } from '../harness/fixtures';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { onVirtualClock, runOnVirtualClock, withVirtualClock } from '../harness/virtualClock';

const simulator = useSimulator({ taskDurationMs: 300 });

// Max Wait Time is far above the task's 0.3 s and far below the test's own timeout: a finished
// task that was not recognised ends in the timeout error, never in images.
const generateAndWait = (options: INodeParameters = {}) => ({
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'studio shot',
		options: currentVersionOptions({
			initialDelay: 0,
			polling: 'fixed',
			pollInterval: 0.1,
			maxWaitTime: 8,
			downloadImages: false,
			...options,
		}),
	},
});

const WORKING_WORDS = { submitted: 'PENDING', queued: 'in_queue', processing: 'In Progress' };

describe('a service that ends a task with its own word: the wait ends with the images', () => {
	test.each([
		['succeeded family', 'Succeeded'],
		['success family', 'SUCCESS'],
		['successful', 'successful'],
		['completed family', 'COMPLETED'],
		['complete', 'complete'],
		['done', 'Done'],
		['finished', 'finished'],
		['ready', 'READY'],
		['an unknown word, with result images and completed_at', 'generated'],
	])('%s (%j)', async (_family, word) => {
		const sim = simulator();
		sim.configure({ statusWords: { ...WORKING_WORDS, succeeded: word } });
		// On the virtual clock: the 0.3 s task is still working at the first looks, however busy
		// the machine is.
		const result = await runOnVirtualClock(() =>
			runWorkflow({ credentials: credentialsFor(sim), nodes: [generateAndWait()] }),
		);

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ status: word, image_count: 1 });
		expect(String(result.items[0].json.url)).toContain('/v1/open/assets/');
		// The working words kept it waiting: it was looked at more than once.
		const [task] = [...sim.tasks.values()];
		expect(task.queries).toBeGreaterThan(1);
	});
});

test('a completion word without images is an error that says so, at once, not a wait until Max Wait Time', async () => {
	const sim = simulator();
	sim.configure({ statusWords: { succeeded: 'completed' }, imagesPerTask: 0 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ maxWaitTime: 30 })],
	});

	const [task] = [...sim.tasks.values()];
	expect(result.error?.message).toBe('The finished task holds no result images [item 0]');
	expect(result.error?.description).toContain(
		`The service reported task ${task.task_id} finished (status "completed").`,
	);
	expect(result.error?.message).not.toContain('did not finish');
	// The query was answered 200: the task's status word is no HTTP code.
	expect(result.error?.httpCode).toBeUndefined();
	// The last look saw it finished; nothing polled on after that.
	expect(sim.stats.requests.filter((request) => request.route === 'task').length).toBe(
		task.queries,
	);
	expect(sim.stats.requests.at(-1)?.route).toBe('task');
});

test('a failure word of another service fails the task with its reason', async () => {
	const sim = simulator();
	sim.configure({ statusWords: { failed: 'ERROR' }, taskOutcome: 'fail' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait()],
	});

	const [task] = [...sim.tasks.values()];
	expect(result.error?.message).toBe('The service could not complete the task [item 0]');
	expect(result.error?.description).toContain(
		`Task ${task.task_id} ended with status "ERROR": The model could not render the product (simulated failure) (code generation_failed).`,
	);
});

test('a timeout whose last answer carried images does not call the task unfinished', async () => {
	const sim = simulator();
	// Images under a working word and no completion time: previews, or a service that never says done.
	sim.configure({
		statusWords: { succeeded: 'processing' },
		omitCompletedAt: true,
		taskDurationMs: 0,
	});
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ maxWaitTime: 0.6 })],
	});

	const [task] = [...sim.tasks.values()];
	expect(result.error?.message).toBe('The task was not marked complete within 0.6 s [item 0]');
	expect(result.error?.description).toContain(
		'Its last answer (status "processing") carried 1 result image but no completion time.',
	);
	expect(result.error?.description).toContain(task.task_id);
	expect(result.error?.message).not.toContain('did not finish');
});

describe('Wait for Completion on a task that has finished', () => {
	const seed = async (sim: ReturnType<typeof simulator>) => {
		sim.configure({ taskDurationMs: 0 });
		const generated = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ parameters: { resource: 'image', operation: 'generate', prompt: 'bottle' } }],
		});
		return String(generated.items[0].json.task_id);
	};
	const waitFor = (taskId: string, options: INodeParameters) => ({
		parameters: {
			resource: 'task',
			operation: 'wait',
			taskId,
			options: currentVersionOptions({ downloadImages: false, ...options }),
		},
	});
	const firstLookAfter = (sim: ReturnType<typeof simulator>, started: number) =>
		(sim.stats.requests.find((request) => request.route === 'task')?.at ?? Infinity) - started;

	test('looks at once, not after the 5 s Initial Delay', async () => {
		const sim = simulator();
		// Seeded on the same virtual clock: the task is finished when the wait starts.
		const { taskId, result, started } = await withVirtualClock(async () => {
			const taskId = await onVirtualClock(seed(sim));
			const started = Date.now();
			const result = await onVirtualClock(
				runWorkflow({ credentials: credentialsFor(sim), nodes: [waitFor(taskId, {})] }),
			);
			return { taskId, result, started };
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].json.task_id).toBe(taskId);
		expect(sim.stats.byRoute.task).toBe(1);
		// On the virtual clock: at once, where the default delay is 5 s.
		expect(firstLookAfter(sim, started)).toBe(0);
	});

	test('an Initial Delay set on the node is kept', async () => {
		const sim = simulator();
		// Seeded on the same virtual clock: the task is finished when the wait starts.
		const { taskId, result, started } = await withVirtualClock(async () => {
			const taskId = await onVirtualClock(seed(sim));
			const started = Date.now();
			const result = await onVirtualClock(
				runWorkflow({
					credentials: credentialsFor(sim),
					nodes: [waitFor(taskId, { initialDelay: 1.5 })],
				}),
			);
			return { taskId, result, started };
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].json.task_id).toBe(taskId);
		// On the virtual clock: exactly the delay set.
		expect(firstLookAfter(sim, started)).toBe(1500);
	});
});
