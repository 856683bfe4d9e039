import { readPngInfo } from '../simulator';
import { pairedIndexes } from '../harness/fixtures';
import { clientEventMark, clientEventsSince } from '../harness/clientRequests';
import { binaryBytes } from '../harness/engine';
import { useSimulator } from '../harness/simulator';
import { runOnVirtualClock, withVirtualClock, onVirtualClock } from '../harness/virtualClock';
import {
	analyze,
	clearStats,
	generate,
	generateAndWait,
	plan,
	PROMPT_FROM_ITEM,
	promptItems,
	requestsOn,
	retriesLogged,
	run,
	taskWait,
	FAULT_SIMULATOR,
} from './faultCase';
import { finishCase } from './faultTable';

const simulator = useSimulator(FAULT_SIMULATOR);

test('a 429 storm on task queries with Retry-After: 0 is waited out at once, not with backoff', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 429, retryAfter: '0', times: 3 });
	// On the virtual clock, where a query takes no time: "at once" is the same millisecond.
	const result = await runOnVirtualClock(() =>
		run(sim, { nodes: [{ parameters: generateAndWait() }] }),
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBeGreaterThan(0);
	const queries = requestsOn(sim, 'task');
	expect(queries.slice(0, 3).map((entry) => entry.status)).toEqual([429, 429, 429]);
	// Backoff would wait at least 500 ms before the first retry; Retry-After: 0 means now.
	for (let index = 1; index < 4; index++) expect(queries[index].at - queries[index - 1].at).toBe(0);
	expect(retriesLogged(result)).toBe(3);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: '429 storm, Retry-After: 0',
		operation: 'image/generateAndWait',
		injected: 'task: 3 × 429, Retry-After 0',
	});
});

test('Retry-After in seconds: the retry waits at least that long', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 429, retryAfter: '1' });
	const result = await runOnVirtualClock(() =>
		run(sim, { nodes: [{ parameters: generateAndWait() }] }),
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const [limited, retried] = requestsOn(sim, 'task');
	expect(limited.status).toBe(429);
	// On the virtual clock: the second Retry-After asks for, plus the rate-limit gate's jitter
	// (at most a fifth of the pause).
	expect(retried.at - limited.at).toBeGreaterThanOrEqual(1_000);
	expect(retried.at - limited.at).toBeLessThanOrEqual(1_200);
	expect(
		result.logs.some((line) =>
			/taskQuery got HTTP 429; retry 1 of 4 in 1000 ms/.test(line.message),
		),
	).toBe(true);
	finishCase(sim, result, {
		case: 'Retry-After in seconds',
		operation: 'image/generateAndWait',
		injected: 'task: 429, Retry-After 1',
	});
});

test('Retry-After as an HTTP date: the retry comes no earlier than that date', async () => {
	const sim = simulator();
	const { result, date } = await withVirtualClock(async () => {
		// HTTP dates have whole seconds: the virtual clock starts on one, so this is 1 s away.
		const date = new Date(Math.ceil(Date.now() / 1000) * 1000 + 1000);
		sim.addFault({ route: 'task', status: 429, retryAfter: date.toUTCString() });
		const result = await onVirtualClock(run(sim, { nodes: [{ parameters: generateAndWait() }] }));
		return { result, date };
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const [limited, retried] = requestsOn(sim, 'task');
	expect(limited.status).toBe(429);
	// On the virtual clock: at the date, plus the rate-limit gate's jitter (a fifth of the pause).
	expect(retried.at).toBeGreaterThanOrEqual(date.getTime());
	expect(retried.at - date.getTime()).toBeLessThanOrEqual(200);
	finishCase(sim, result, {
		case: 'Retry-After as HTTP date',
		operation: 'image/generateAndWait',
		injected: 'task: 429, Retry-After <date ~1 s ahead>',
	});
});

test('a 429 on submit is retried: the service refused it, so exactly one task is created', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 429, retryAfter: '0' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(requestsOn(sim, 'submit').map((entry) => entry.status)).toEqual([429, 200]);
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(sim.tasks.size).toBe(1);
	expect(result.items[0].json.task_id).toBe([...sim.tasks.keys()][0]);
	finishCase(sim, result, {
		case: '429 on submit',
		operation: 'image/generateAndWait',
		injected: 'submit: 429, Retry-After 0',
	});
});

test('a 429 storm on submit gives up after 4 attempts with advice to slow down, nothing created', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 429, retryAfter: '0', times: Infinity });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe('The service asked to slow down [item 0]');
	expect(result.error?.description).toMatch(
		/^The reply said: "Simulated 429"\. Request ID: req_[0-9a-f]+\. /,
	);
	expect(result.error?.context?.serviceCode).toBe(429);
	expect(result.error?.description).toContain('rate-limiting');
	expect(result.error?.description).toContain('tried 4 times');
	expect(result.error?.description).toContain('Items in Parallel');
	expect(result.error?.httpCode).toBe('429');
	expect(requestsOn(sim, 'submit')).toHaveLength(4);
	expect(sim.stats.submitsAccepted).toBe(0);
	expect(sim.stats.byRoute.task ?? 0).toBe(0);
	expect(result.items).toHaveLength(0);
	finishCase(sim, result, {
		case: '429 storm on submit',
		operation: 'image/generateAndWait',
		injected: 'submit: 429 × ∞, Retry-After 0',
	});
});

test('a Retry-After beyond two minutes is not waited for: one request, a clear error', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 429, retryAfter: '3600' });
	const result = await runOnVirtualClock(() =>
		run(sim, { nodes: [{ parameters: generateAndWait() }] }),
	);

	expect(result.error?.message).toBe('The service asked to slow down [item 0]');
	expect(result.error?.description).toContain('rate-limiting');
	expect(result.error?.description).toMatch(
		/asked to wait 60 minutes \(until about \d\d:\d\d UTC\)/,
	);
	expect(requestsOn(sim, 'task')).toHaveLength(1);
	// On the virtual clock: not a moment waited, where even the longest pause the transport
	// accepts is 2 minutes.
	expect(result.durationMs).toBe(0);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'Retry-After too long',
		operation: 'image/generateAndWait',
		injected: 'task: 429, Retry-After 3600',
	});
});

test.each([
	['outputTaskState', 'Output Task State'],
	['error', 'Stop'],
] as const)(
	'a 429 with Retry-After: 1 arriving 0.6 s before Max Wait Time ends the wait with its own outcome (%s)',
	async (onTimeout, shown) => {
		const sim = simulator();
		// Looks at 0 s (answered) and 7.4 s (429): the pause asked for ends after the 8 s.
		const { taskId, result, started } = await runOnVirtualClock(async () => {
			sim.configure({ taskOutcome: 'never' });
			const submitted = await run(sim, { nodes: [{ parameters: generate() }] });
			const taskId = String(submitted.items[0].json.task_id);
			clearStats(sim);
			sim.addFault({ route: 'task', delayMs: 0 });
			sim.addFault({ route: 'task', status: 429, retryAfter: '1' });
			const started = Date.now();
			const options = { polling: 'fixed', pollInterval: 7.4, maxWaitTime: 8, onTimeout };
			const result = await run(sim, {
				nodes: [{ parameters: taskWait(taskId, options), continueOnFail: true }],
			});
			return { taskId, result, started };
		});

		expect(requestsOn(sim, 'task').map((entry) => [entry.at - started, entry.status])).toEqual([
			[0, 200],
			[7_400, 429],
		]);
		expect(result.durationMs).toBe(7_400);
		expect(result.items).toHaveLength(1);
		const json = result.items[0].json;
		expect(json.outcome).toBe('lookAgainLater');
		if (onTimeout === 'outputTaskState') {
			expect(json).toMatchObject({
				task_id: taskId,
				timed_out: true,
				last_check_error: 'The service asked to slow down',
			});
		} else {
			expect(json.error).toBe(`The service did not answer about task ${taskId} within 8 s`);
			expect(String(json.description)).not.toContain('Max Concurrency');
		}
		finishCase(sim, result, {
			case: `429 with Retry-After 1, 0.6 s before Max Wait Time, On Timeout → ${shown}`,
			operation: 'task/wait',
			injected: 'task: 429, Retry-After 1 at 7.4 s, Max Wait Time 8 s',
		});
	},
);

test.each([
	['analysis', 'analysis/analyze'],
	['plan', 'aPlusPlan/create'],
] as const)(
	'a 429 on %s is retried after Retry-After and the result comes through',
	async (route, operation) => {
		const sim = simulator();
		sim.addFault({ route, status: 429, retryAfter: '0', times: 2 });
		const parameters = route === 'analysis' ? analyze(sim) : plan(sim);
		const result = await run(sim, { nodes: [{ parameters }] });

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(requestsOn(sim, route).map((entry) => entry.status)).toEqual([429, 429, 200]);
		if (route === 'analysis') expect(result.items[0].json.analysis).toBeDefined();
		else expect((result.items[0].json.modules as unknown[]).length).toBe(2);
		finishCase(sim, result, {
			case: `429 on ${route}`,
			operation,
			injected: `${route}: 2 × 429, Retry-After 0`,
		});
	},
);

test('a 429 on a result download is retried', async () => {
	const sim = simulator();
	sim.addFault({ route: 'asset', status: 429, retryAfter: '0' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'asset').map((entry) => entry.status)).toEqual([429, 200]);
	expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBeGreaterThan(0);
	finishCase(sim, result, {
		case: '429 on download',
		operation: 'image/generateAndWait',
		injected: 'asset: 429, Retry-After 0',
	});
});

test('a 429 storm over several concurrent items: every item comes through once, in input order', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 429, retryAfter: '0', times: 3 });
	sim.addFault({ route: 'task', status: 429, retryAfter: '0', times: 4 });
	sim.addFault({ route: 'asset', status: 429, retryAfter: '0', times: 2 });
	const input = promptItems(4);
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait({ maxConcurrency: 4 }, { prompt: PROMPT_FROM_ITEM }),
				continueOnFail: true,
			},
		],
		input,
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(4);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3]);
	expect(result.items.every((item) => item.json.error === undefined)).toBe(true);
	expect(sim.stats.submitsAccepted).toBe(4);
	// Each output item's task was submitted with its own input item's prompt.
	for (const [index, item] of result.items.entries()) {
		expect(sim.tasks.get(String(item.json.task_id))?.body.prompt).toBe(`item ${index}`);
	}
	expect(new Set(result.items.map((item) => item.json.task_id)).size).toBe(4);
	expect(retriesLogged(result)).toBe(9);
	finishCase(sim, result, {
		case: '429 storm, 4 concurrent items',
		operation: 'image/generateAndWait',
		injected: 'submit 3 × 429, task 4 × 429, asset 2 × 429',
		inputCount: 4,
	});
});

test('a 429 with Retry-After pauses every lane of the run, not only the one that got it', async () => {
	const sim = simulator();
	// Tasks that run long enough for every lane to keep polling through the pause.
	sim.configure({ taskDurationMs: 1_500 });
	sim.addFault({ route: 'task', status: 429, retryAfter: '1' });
	const mark = clientEventMark();
	const result = await runOnVirtualClock(() =>
		run(sim, {
			nodes: [{ parameters: generateAndWait({ maxConcurrency: 6 }, { prompt: PROMPT_FROM_ITEM }) }],
			input: promptItems(6),
		}),
	);

	expect(result.error).toBeUndefined();
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3, 4, 5]);
	const queries = requestsOn(sim, 'task');
	// Seen where the node sends and reads, so a query started just before the 429 arrived is told
	// apart from one started after it: from the 429's status line on, nothing is started until
	// the pause is over (lanes poll every 0.1 s, so without a shared pause ~50 would start).
	const events = clientEventsSince(mark);
	const limited = events.findIndex((event) => event.kind === 'reply' && event.status === 429);
	expect(limited).toBeGreaterThanOrEqual(0);
	const startsAfter = events.slice(limited + 1).filter((event) => event.kind === 'start');
	expect(startsAfter.length).toBeGreaterThan(0);
	// On the virtual clock: the pause is the second asked for plus each lane's jitter, at most a
	// fifth of the pause; the lanes come back spread over that fifth, not in the same millisecond.
	const resumed = startsAfter.map((event) => event.at - events[limited].at);
	expect(Math.min(...resumed)).toBeGreaterThanOrEqual(1_000);
	expect(Math.max(...resumed.slice(0, 6))).toBeLessThanOrEqual(1_200);
	expect(new Set(resumed.slice(0, 6)).size).toBeGreaterThan(1);
	expect(queries.filter((entry) => entry.status === 429)).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(6);
	finishCase(sim, result, {
		case: 'one 429 pauses all 6 lanes',
		operation: 'image/generateAndWait',
		injected: 'task: 429, Retry-After 1, 6 items polling',
		inputCount: 6,
		bounded: { task: 60 },
	});
});
