import { pairedIndexes } from '../harness/fixtures';
import { useSimulator } from '../harness/simulator';
import { analyze, FAULT_SIMULATOR, finishCase, generateAndWait, promptItems, PROMPT_FROM_ITEM, requestsOn, run } from './support';

const simulator = useSimulator(FAULT_SIMULATOR);

/** Requests that arrived after the run was over: none may, a cancelled node must not keep working. */
async function requestsAfterRun(sim: ReturnType<typeof simulator>, settleMs: number): Promise<number> {
	const count = sim.stats.requests.length;
	await new Promise((resolve) => setTimeout(resolve, settleMs));
	return sim.stats.requests.length - count;
}

test('cancelling while polling stops within one poll interval, and no query follows', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const cancelAfterMs = 700;
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({ pollInterval: 1, maxWaitTime: 30 }) }],
		cancelAfterMs,
	});

	const [taskId] = [...sim.tasks.keys()];
	expect(result.durationMs).toBeLessThan(cancelAfterMs + 1_000);
	expect(result.error?.message).toBe(`The execution was cancelled while waiting for task ${taskId}`);
	expect(result.error?.description).toContain('Wait for Task');
	expect(await requestsAfterRun(sim, 1_300)).toBe(0);
	expect(requestsOn(sim, 'task').length).toBeLessThanOrEqual(1);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, { case: 'cancel while polling', operation: 'image/generateAndWait', injected: 'taskOutcome never, cancel after 0.7 s (poll 1 s)' });
});

test('cancelling during a Retry-After wait stops at once, without the retry', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 429, retryAfter: '1' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }], cancelAfterMs: 300 });

	expect(result.durationMs).toBeLessThan(300 + 500);
	expect(result.error?.message).toMatch(/cancelled/);
	expect(requestsOn(sim, 'task').map((entry) => entry.status)).toEqual([429]);
	expect(await requestsAfterRun(sim, 1_200)).toBe(0);
	finishCase(sim, result, { case: 'cancel during Retry-After', operation: 'image/generateAndWait', injected: 'task: 429 Retry-After 1, cancel after 0.3 s' });
});

test('cancelling during a backoff after a 5xx stops at once, without the retry', async () => {
	const sim = simulator();
	sim.addFault({ route: 'asset', status: 503 });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }], cancelAfterMs: 250 });

	expect(result.durationMs).toBeLessThan(250 + 500);
	expect(result.error?.message).toMatch(/cancelled/);
	expect(requestsOn(sim, 'asset').map((entry) => entry.status)).toEqual([503]);
	expect(await requestsAfterRun(sim, 1_200)).toBe(0);
	finishCase(sim, result, { case: 'cancel during backoff', operation: 'image/generateAndWait', injected: 'asset: 503, cancel after 0.25 s' });
});

test('cancelling during a slow analysis aborts the open request', async () => {
	const sim = simulator();
	sim.addFault({ route: 'analysis', delayMs: 5_000 });
	const result = await run(sim, { nodes: [{ parameters: analyze(sim) }], cancelAfterMs: 300 });

	expect(result.durationMs).toBeLessThan(300 + 500);
	expect(result.error?.message).toMatch(/cancelled/);
	expect(requestsOn(sim, 'analysis')).toHaveLength(1);
	finishCase(sim, result, { case: 'cancel during a slow analysis', operation: 'analysis/analyze', injected: 'analysis: reply after 5 s, cancel after 0.3 s' });
});

test('cancelling with several items waiting stops all of them; none is submitted twice', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait({ pollInterval: 0.5, maxWaitTime: 30, maxConcurrency: 3 }, { prompt: PROMPT_FROM_ITEM }),
				continueOnFail: true,
			},
		],
		input: promptItems(3),
		cancelAfterMs: 600,
	});

	expect(result.durationMs).toBeLessThan(600 + 500 + 300);
	expect(await requestsAfterRun(sim, 800)).toBe(0);
	expect(sim.stats.submitsAccepted).toBe(3);
	expect(new Set([...sim.tasks.values()].map((task) => task.body.prompt))).toEqual(new Set(['item 0', 'item 1', 'item 2']));
	// With Continue On Fail each item reports its own task, so none has to be submitted again.
	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	for (const [index, item] of result.items.entries()) {
		expect(item.json.error).toBe(`The execution was cancelled while waiting for task ${item.json.taskId}`);
		expect(sim.tasks.get(String(item.json.taskId))?.body.prompt).toBe(`item ${index}`);
	}
	finishCase(sim, result, {
		case: 'cancel with 3 items waiting',
		operation: 'image/generateAndWait',
		injected: 'taskOutcome never, cancel after 0.6 s (poll 0.5 s)',
		inputCount: 3,
		bounded: { task: 6 },
	});
});
