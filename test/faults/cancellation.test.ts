import { clientRequestsSince } from '../harness/clientRequests';
import type { RunResult } from '../harness/engine';
import { pairedIndexes } from '../harness/fixtures';
import { useSimulator } from '../harness/simulator';
import {
	analyze,
	FAULT_SIMULATOR,
	generate,
	generateAndWait,
	promptItems,
	PROMPT_FROM_ITEM,
	requestsOn,
	run,
} from './faultCase';
import { finishCase } from './faultTable';

const simulator = useSimulator(FAULT_SIMULATOR);

/**
 * Requests the node started after the cancel, watched for `settleMs` more: none may start, a
 * cancelled node must not keep working. Counted where the node starts them, not where the
 * simulator sees them: one sent just before the cancel can reach the simulator after the run.
 */
async function requestsStartedAfterCancel(result: RunResult, settleMs: number): Promise<string[]> {
	if (result.cancelMark === undefined) throw new Error('the run was not cancelled');
	await new Promise((resolve) => setTimeout(resolve, settleMs));
	return clientRequestsSince(result.cancelMark);
}

// How long after the cancel a run may take to end on a loaded machine. Far below the 30 s poll
// interval of these cases: a wait that noticed the cancel only at its next look would end after
// it. The quarter second itself is checked on a fake clock (test/unit/cancel-latency.test.ts).
const ENDS_AFTER_CANCEL_MS = 5_000;

/**
 * Settles `thenMs` after the simulator has seen requests on `route` to `paths` different
 * addresses: the cancel then lands where the case says (in a wait, a pause, an open request)
 * however slowly a busy machine got there, instead of at a fixed time that may come too early.
 */
async function afterRequests(
	sim: ReturnType<typeof simulator>,
	route: string,
	paths: number,
	thenMs: number,
): Promise<void> {
	const seen = () => new Set(requestsOn(sim, route).map((entry) => entry.path)).size;
	while (seen() < paths) await new Promise((resolve) => setTimeout(resolve, 10));
	await new Promise((resolve) => setTimeout(resolve, thenMs));
}

test('cancelling while polling stops the wait at once, not at the next look, and no query follows', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({ pollInterval: 30, maxWaitTime: 90 }) }],
		cancelWhen: afterRequests(sim, 'task', 1, 500),
	});

	const [taskId] = [...sim.tasks.keys()];
	expect(result.endedAfterCancelMs).toBeLessThan(ENDS_AFTER_CANCEL_MS);
	expect(result.error?.message).toBe(
		'The execution was canceled while waiting for the task [item 0]',
	);
	expect(result.error?.description).toContain(`Wait for Completion' and task ID ${taskId}.`);
	// The log names the task too: in queue mode the worker's log is where a stop leaves it.
	expect(
		result.logs.some((line) =>
			line.message.includes(`the execution was canceled while waiting for task ${taskId}`),
		),
	).toBe(true);
	expect(await requestsStartedAfterCancel(result, 1_300)).toEqual([]);
	expect(requestsOn(sim, 'task')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'cancel while polling',
		operation: 'image/generateAndWait',
		injected: 'taskOutcome never, cancel 0.5 s after the first look (poll 30 s)',
	});
});

test('cancelling during a Retry-After wait stops at once, without the retry', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 429, retryAfter: '8' });
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({ maxWaitTime: 30 }) }],
		cancelWhen: afterRequests(sim, 'task', 1, 300),
	});

	expect(result.endedAfterCancelMs).toBeLessThan(ENDS_AFTER_CANCEL_MS);
	// The query's own cancel becomes the wait's: it names the task to resume.
	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe(
		'The execution was canceled while waiting for the task [item 0]',
	);
	expect(result.error?.description).toContain(`Wait for Completion' and task ID ${taskId}.`);
	expect(requestsOn(sim, 'task').map((entry) => entry.status)).toEqual([429]);
	expect(await requestsStartedAfterCancel(result, 1_200)).toEqual([]);
	finishCase(sim, result, {
		case: 'cancel during Retry-After',
		operation: 'image/generateAndWait',
		injected: 'task: 429 Retry-After 8, cancel 0.3 s after it',
	});
});

test('cancelling during the pause before retrying a 5xx stops at once, without the retry', async () => {
	const sim = simulator();
	sim.addFault({ route: 'asset', status: 503, retryAfter: '8' });
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({ maxWaitTime: 30 }) }],
		cancelWhen: afterRequests(sim, 'asset', 1, 300),
	});

	expect(result.endedAfterCancelMs).toBeLessThan(ENDS_AFTER_CANCEL_MS);
	expect(result.error?.message).toMatch(/canceled/);
	expect(requestsOn(sim, 'asset').map((entry) => entry.status)).toEqual([503]);
	expect(await requestsStartedAfterCancel(result, 1_200)).toEqual([]);
	finishCase(sim, result, {
		case: 'cancel during backoff',
		operation: 'image/generateAndWait',
		injected: 'asset: 503 Retry-After 8, cancel 0.3 s after it',
	});
});

test('cancelling during a slow analysis aborts the open request', async () => {
	const sim = simulator();
	sim.addFault({ route: 'analysis', delayMs: 20_000 });
	const result = await run(sim, {
		nodes: [{ parameters: analyze(sim) }],
		cancelWhen: afterRequests(sim, 'analysis', 1, 300),
	});

	expect(result.endedAfterCancelMs).toBeLessThan(ENDS_AFTER_CANCEL_MS);
	expect(result.error?.message).toMatch(/canceled/);
	expect(requestsOn(sim, 'analysis')).toHaveLength(1);
	finishCase(sim, result, {
		case: 'cancel during a slow analysis',
		operation: 'analysis/analyze',
		injected: 'analysis: reply after 20 s, cancel 0.3 s after it arrived',
	});
});

test.each([
	['submit', 'image/generate', 'unknown'],
	['analysis', 'analysis/analyze', 'lookAgainLater'],
] as const)(
	'cancelling during an open %s request, with Continue On Fail: its item says what the request may have left (%s)',
	async (route, operation, outcome) => {
		const sim = simulator();
		sim.addFault({ route, delayMs: 20_000 });
		const result = await run(sim, {
			nodes: [{ parameters: route === 'submit' ? generate() : analyze(sim), continueOnFail: true }],
			cancelWhen: afterRequests(sim, route, 1, 300),
		});

		// The node left the open request at the cancel: the reply held back 20 s was not yet sent
		// when the run ended (the simulator records a reply's status as it sends it).
		expect(requestsOn(sim, route).map((request) => request.status)).toEqual([0]);
		// A submit cut short may still have made a task; an analysis may be asked for again.
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ error: 'The execution was canceled', outcome });
		finishCase(sim, result, {
			case: `cancel during an open ${route}, Continue On Fail`,
			operation,
			injected: `${route}: reply after 20 s, cancel 0.3 s after it arrived`,
		});
	},
);

test('cancelling with several items waiting stops all of them; none is submitted twice', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait(
					{ pollInterval: 30, maxWaitTime: 90, maxConcurrency: 3 },
					{ prompt: PROMPT_FROM_ITEM },
				),
				continueOnFail: true,
			},
		],
		input: promptItems(3),
		cancelWhen: afterRequests(sim, 'task', 3, 300),
	});

	expect(result.endedAfterCancelMs).toBeLessThan(ENDS_AFTER_CANCEL_MS);
	expect(await requestsStartedAfterCancel(result, 800)).toEqual([]);
	expect(sim.stats.submitsAccepted).toBe(3);
	expect(requestsOn(sim, 'task')).toHaveLength(3);
	expect(new Set([...sim.tasks.values()].map((task) => task.body.prompt))).toEqual(
		new Set(['item 0', 'item 1', 'item 2']),
	);
	// With Continue On Fail each item reports its own task, so none has to be submitted again.
	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	for (const [index, item] of result.items.entries()) {
		expect(item.json.error).toBe('The execution was canceled while waiting for the task');
		expect(item.json.description).toBe(
			`The task may still finish on the service: resume with 'Task → Wait for Completion' and task ID ${String(item.json.taskId)}.`,
		);
		expect(sim.tasks.get(String(item.json.taskId))?.body.prompt).toBe(`item ${index}`);
	}
	finishCase(sim, result, {
		case: 'cancel with 3 items waiting',
		operation: 'image/generateAndWait',
		injected: 'taskOutcome never, cancel 0.3 s after all 3 are polled (poll 30 s)',
		inputCount: 3,
	});
});
