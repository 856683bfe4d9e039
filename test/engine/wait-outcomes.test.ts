import { currentVersionOptions, pairedIndexes } from '../harness/fixtures';
import { runWorkflow, type NodeSpec } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { runOnVirtualClock } from '../harness/virtualClock';

const simulator = useSimulator();

const waitFor = (taskId: string, options: Record<string, unknown>) => ({
	parameters: {
		resource: 'task',
		operation: 'wait',
		taskId,
		options: currentVersionOptions({ initialDelay: 0, pollInterval: 0.1, ...options }),
	},
});

const generateAndWait = (options: Record<string, unknown>): NodeSpec => ({
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'studio shot',
		options: currentVersionOptions({ initialDelay: 0, pollInterval: 0.1, ...options }),
	},
});

/** The ID of a task that has finished by the time anyone looks, submitted by a Generate run. */
async function finishedTaskId(sim: ReturnType<typeof simulator>): Promise<string> {
	sim.configure({ taskDurationMs: 0 });
	const generated = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ parameters: { resource: 'image', operation: 'generate', prompt: 'bottle' } }],
	});
	return String(generated.items[0].json.task_id);
}

/** Runs `node` on a task that never finishes; it must hand on the task state, timed out. */
async function runUntilTimedOut(node: NodeSpec) {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	// On the virtual clock: when the wait ends is exact.
	const result = await runOnVirtualClock(() =>
		runWorkflow({ credentials: credentialsFor(sim), nodes: [node] }),
	);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({ timed_out: true });
	return { sim, result };
}

test('On Timeout → Output Task State hands on where the task stood, without an error', async () => {
	const { sim, result } = await runUntilTimedOut(
		generateAndWait({ maxWaitTime: 0.5, onTimeout: 'outputTaskState' }),
	);

	const [taskId] = [...sim.tasks.keys()];
	expect(result.items[0].json).toMatchObject({ task_id: taskId, timed_out: true });
	expect(['submitted', 'queued', 'processing']).toContain(result.items[0].json.status);
	// Seconds to a tenth, until the last poll that fit the half second (polls 0.1 s apart).
	expect(result.items[0].json.waited_seconds).toBe(0.5);
	expect(pairedIndexes(result.items)).toEqual([0]);
});

test('On Timeout → Error (the default) stops with the task id', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ maxWaitTime: 0.5 })],
	});

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe('The task did not finish within 0.5 s [item 0]');
	expect(result.error?.description).toContain(
		`The task goes on at the service: resume with 'Task → Wait for Completion' and task ID ${taskId}, or raise 'Max Wait Time'.`,
	);
});

test('a task query asked to wait longer than the transport waits ends the wait at once, even with time left', async () => {
	const sim = simulator();
	const taskId = await finishedTaskId(sim);
	// Ten minutes: within Max Wait Time, beyond the two minutes a request waits for a Retry-After.
	sim.addFault({ route: 'task', status: 429, retryAfter: '600' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [waitFor(taskId, { maxWaitTime: 3600 })],
	});

	expect(result.error?.message).toMatch(/^The service asked to slow down/);
	expect(result.error?.httpCode).toBe('429');
	expect(result.error?.description).toMatch(/asked to wait 10 minutes/);
	expect(sim.stats.requests.filter((request) => request.route === 'task')).toHaveLength(1);
});

test('a Retry-After of exactly the two minutes a request waits for is waited out, by the query and by the wait', async () => {
	const sim = simulator();
	// On the virtual clock from the submit on: the simulator's task finishes on the same clock.
	const { taskId, result } = await runOnVirtualClock(async () => {
		const taskId = await finishedTaskId(sim);
		// One query's five attempts and the first attempt of the next look: 120 s is the longest the
		// transport waits for, and the longest a missed look waits for, not beyond them.
		sim.addFault({ route: 'task', status: 429, retryAfter: '120', times: 6 });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [waitFor(taskId, { maxWaitTime: 3600, downloadImages: false })],
		});
		return { taskId, result };
	});

	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({ task_id: taskId, status: 'succeeded' });
	const queries = sim.stats.requests.filter((request) => request.route === 'task');
	expect(queries.map((query) => query.status)).toEqual([429, 429, 429, 429, 429, 429, 200]);
});

test('task queries that keep failing for a passing reason are missed looks, not the end of the wait', async () => {
	const sim = simulator();
	const taskId = await finishedTaskId(sim);
	// More 429s than one query's own retries: before, the wait ended with "retry 4 of 4".
	sim.addFault({ route: 'task', status: 429, retryAfter: '0', times: 7 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [waitFor(taskId, { maxWaitTime: 60, downloadImages: false })],
	});

	expect(result.error).toBeUndefined();
	expect(result.items[0].json).toMatchObject({ task_id: taskId, status: 'succeeded' });
	const queries = sim.stats.requests.filter((request) => request.route === 'task');
	expect(queries.filter((query) => query.status === 429)).toHaveLength(7);
	expect(queries.at(-1)?.status).toBe(200);
});

test('a task that is gone (404) still ends the wait at once', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [waitFor('task_unknown', { maxWaitTime: 60 })],
	});

	expect(result.error?.httpCode).toBe('404');
	expect(sim.stats.requests.filter((request) => request.route === 'task')).toHaveLength(1);
});

test('an adaptive wait looks a last time at Max Wait Time before it reports the task state', async () => {
	// No Poll Interval set: Adaptive, whose next look (5 s away) would pass the deadline.
	const { sim, result } = await runUntilTimedOut({
		parameters: {
			resource: 'image',
			operation: 'generateAndWait',
			prompt: 'studio shot',
			options: currentVersionOptions({
				initialDelay: 0,
				maxWaitTime: 1.2,
				onTimeout: 'outputTaskState',
			}),
		},
	});

	expect(result.items[0].json.waited_seconds).toBe(1.2);
	const [task] = [...sim.tasks.values()];
	const looks = sim.stats.requests
		.filter((r) => r.route === 'task')
		.map((r) => r.at - task.createdAt);
	expect(looks).toEqual([0, 1200]);
});

test('a Fixed Interval wait ends at its last poll that fits Max Wait Time, without one more at the deadline', async () => {
	// Polls at 0, 1 and 2 s; the next, at 3 s, would pass the 2.5 s: the fixed poller stops
	// there, where the adaptive one would poll once more at 2.5 s.
	const { sim, result } = await runUntilTimedOut(
		generateAndWait({
			polling: 'fixed',
			pollInterval: 1,
			maxWaitTime: 2.5,
			onTimeout: 'outputTaskState',
		}),
	);

	const [task] = [...sim.tasks.values()];
	expect(
		sim.stats.requests.filter((r) => r.route === 'task').map((r) => r.at - task.createdAt),
	).toEqual([0, 1000, 2000]);
	expect(result.items[0].json.waited_seconds).toBe(2);
});
