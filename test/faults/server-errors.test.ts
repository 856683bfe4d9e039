import { readPngInfo } from '../simulator';
import { pairedIndexes, photoItem } from '../harness/fixtures';
import { binaryBytes } from '../harness/engine';
import { useSimulator } from '../harness/simulator';
import { runOnVirtualClock } from '../harness/virtualClock';
import {
	analyze,
	generate,
	generateAndWait,
	plan,
	PROMPT_FROM_ITEM,
	promptItems,
	requestsOn,
	retriesLogged,
	run,
	seedTask,
	taskWait,
	FAULT_SIMULATOR,
	expectSubmitUnsureAdvice,
} from './faultCase';
import { finishCase } from './faultTable';

const simulator = useSimulator(FAULT_SIMULATOR);

/** What every ambiguous submit failure must tell the user instead of "try again". */

test('a burst of 5xx on task queries is retried with backoff and the task completes', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 503 });
	sim.addFault({ route: 'task', status: 500, body: 'empty' });
	const result = await runOnVirtualClock(() =>
		run(sim, { nodes: [{ parameters: generateAndWait() }] }),
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const queries = requestsOn(sim, 'task');
	expect(queries.slice(0, 2).map((entry) => entry.status)).toEqual([503, 500]);
	// Equal jitter: the first retry waits 0.5–1 s, the second 1–2 s (on the virtual clock, so
	// both ends hold exactly).
	expect(queries[1].at - queries[0].at).toBeGreaterThanOrEqual(500);
	expect(queries[1].at - queries[0].at).toBeLessThanOrEqual(1_000);
	expect(queries[2].at - queries[1].at).toBeGreaterThanOrEqual(1_000);
	expect(queries[2].at - queries[1].at).toBeLessThanOrEqual(2_000);
	expect(retriesLogged(result)).toBe(2);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: '5xx burst on task query',
		operation: 'image/generateAndWait',
		injected: 'task: 503, then 500 empty body',
	});
});

test('a 502 gateway page on a result download is retried and the image arrives whole', async () => {
	const sim = simulator();
	sim.addFault({ route: 'asset', body: 'html' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'asset').map((entry) => entry.status)).toEqual([502, 200]);
	const png = readPngInfo(await binaryBytes(result, result.items[0]));
	expect(png.width).toBe(256);
	finishCase(sim, result, {
		case: '502 HTML page on download',
		operation: 'image/generateAndWait',
		injected: 'asset: 502 HTML page',
	});
});

test('a 5xx on an upload is retried: uploads bill nothing', async () => {
	const sim = simulator();
	sim.addFault({ route: 'upload', status: 503 });
	const result = await run(sim, {
		nodes: [{ parameters: { resource: 'image', operation: 'upload', binaryPropertyName: 'data' } }],
		input: [photoItem()],
	});

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'upload').map((entry) => entry.status)).toEqual([503, 201]);
	expect(sim.uploads.size).toBe(1);
	expect(result.items[0].json.id).toBe([...sim.uploads.keys()][0]);
	finishCase(sim, result, {
		case: '5xx on upload',
		operation: 'image/upload',
		injected: 'upload: 503',
	});
});

test('a 5xx storm on task queries ends at Max Wait Time with the timeout, not a failed task', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 503, times: Infinity });
	// The backoff's jitter decides how many looks fit: one fixed draw makes the fault table's row
	// the same on every run.
	const random = jest.spyOn(Math, 'random').mockReturnValue(0.5);
	const result = await runOnVirtualClock(() =>
		run(sim, { nodes: [{ parameters: generateAndWait({ maxWaitTime: 1.4 }) }] }),
	).finally(() => random.mockRestore());

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe(
		`The service did not answer about task ${taskId} within 1.4 s [item 0]`,
	);
	expect(result.error?.description).toMatch(
		/^The last check could not be made\. The service could not complete the status check\. The reply said: "Simulated 503"\./,
	);
	expect(result.error?.description).toContain(
		`Look again later: resume with 'Task → Wait for Completion' and task ID ${taskId}`,
	);
	expect(result.error?.context).toMatchObject({ taskId, outcome: 'lookAgainLater' });
	// Each failed look is retried, then looked at again, until the next look would pass Max Wait
	// Time: backoff steps of 0.5–1 s fit two or three queries into 1.4 s, never more.
	expect(requestsOn(sim, 'task').length).toBeGreaterThanOrEqual(2);
	expect(requestsOn(sim, 'task').length).toBeLessThanOrEqual(3);
	// On the virtual clock: ended at its last query, inside Max Wait Time.
	expect(requestsOn(sim, 'task').at(-1)!.at - requestsOn(sim, 'submit')[0].at).toBeLessThan(1_400);
	expect(result.durationMs).toBeLessThan(1_400);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: '5xx storm on task query',
		operation: 'image/generateAndWait',
		injected: 'task: 503 × ∞, Max Wait Time 1.4 s',
		bounded: { task: 3 },
	});
});

test("a proxy's 503 page on every task query until Max Wait Time: the task state for the next sweep, not a failed task", async () => {
	const sim = simulator();
	const random = jest.spyOn(Math, 'random').mockReturnValue(0.5);
	// The task and the wait on one clock: the seeded task is as old as the wait thinks.
	const { taskId, result } = await runOnVirtualClock(async () => {
		const { taskId } = await seedTask(sim);
		sim.addFault({ route: 'task', status: 503, body: 'html', times: Infinity });
		const options = { maxWaitTime: 8, onTimeout: 'outputTaskState' };
		const result = await run(sim, {
			nodes: [{ parameters: taskWait(taskId, options), continueOnFail: true }],
		});
		return { taskId, result };
	}).finally(() => random.mockRestore());

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({
		task_id: taskId,
		status: null,
		timed_out: true,
		outcome: 'lookAgainLater',
		last_check_error: 'A proxy or load balancer answered instead of the service',
	});
	// One query's five attempts, one more look, and no query at or past the 8 s.
	expect(requestsOn(sim, 'task').map((entry) => entry.status)).toEqual(Array(6).fill(503));
	expect(result.durationMs).toBeLessThan(8_000);
	finishCase(sim, result, {
		case: '503 HTML page on every task query until Max Wait Time, Output Task State',
		operation: 'task/wait',
		injected: 'task: 503 HTML × ∞, Max Wait Time 8 s',
	});
});

test('an outage on task queries that ends within Max Wait Time: the task is collected as usual', async () => {
	const sim = simulator();
	const random = jest.spyOn(Math, 'random').mockReturnValue(0.5);
	const { taskId, result } = await runOnVirtualClock(async () => {
		const { taskId } = await seedTask(sim);
		// More pages than one query's own five attempts: the wait itself looks again.
		sim.addFault({ route: 'task', status: 503, body: 'html', times: 8 });
		const result = await run(sim, {
			nodes: [{ parameters: taskWait(taskId, { maxWaitTime: 60 }) }],
		});
		return { taskId, result };
	}).finally(() => random.mockRestore());

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({ task_id: taskId, status: 'succeeded' });
	expect(result.items[0].binary?.data).toBeDefined();
	expect(requestsOn(sim, 'task').map((entry) => entry.status)).toEqual([
		...Array(8).fill(503),
		200,
	]);
	finishCase(sim, result, {
		case: 'outage on task queries that ends within Max Wait Time',
		operation: 'task/wait',
		injected: 'task: 503 HTML × 8, Max Wait Time 60 s',
	});
});

test("a finished task's images that keep failing to download: an error item that says look again later", async () => {
	const sim = simulator();
	const { taskId, result } = await runOnVirtualClock(async () => {
		const { taskId } = await seedTask(sim);
		sim.addFault({ route: 'asset', status: 503, times: Infinity });
		const result = await run(sim, {
			nodes: [{ parameters: taskWait(taskId), continueOnFail: true }],
		});
		return { taskId, result };
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({
		error: 'The service could not complete the image download',
		taskId,
		outcome: 'lookAgainLater',
	});
	expect(String(result.items[0].json.description)).toContain(
		`Task ${taskId} succeeded; its image URLs are valid 3 days. Collect the images with 'Task → Wait for Completion'`,
	);
	expect(requestsOn(sim, 'asset')).toHaveLength(5);
	finishCase(sim, result, {
		case: '5xx storm on download, Continue On Fail',
		operation: 'task/wait',
		injected: 'asset: 503 × ∞',
	});
});

test('a 500 on submit that the service did take is not retried: one task, a clear error', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 500, acceptSubmit: true });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe(
		'The service could not complete the generation request [item 0]',
	);
	expect(result.error?.description).toMatch(/^The reply said: "Simulated 500"\. /);
	expectSubmitUnsureAdvice(result.error?.description);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(sim.stats.byRoute.task ?? 0).toBe(0);
	expect(result.items).toHaveLength(0);
	finishCase(sim, result, {
		case: '500 on submit (task taken)',
		operation: 'image/generateAndWait',
		injected: 'submit: 500, acceptSubmit',
	});
});

test('a 503 on submit is not retried either: the client cannot know whether it was taken', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 503 });
	const result = await run(sim, { nodes: [{ parameters: generate() }] });

	expect(result.error?.message).toBe(
		'The service could not complete the generation request [item 0]',
	);
	expectSubmitUnsureAdvice(result.error?.description);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(0);
	finishCase(sim, result, {
		case: '503 on submit',
		operation: 'image/generate',
		injected: 'submit: 503',
	});
});

test('a 502 gateway page on submit is not retried and says to check the task list', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', body: 'html', acceptSubmit: true });
	const result = await run(sim, { nodes: [{ parameters: generate() }] });

	expect(result.error?.message).toBe(
		'A proxy or load balancer answered instead of the service [item 0]',
	);
	expect(result.error?.description).toMatch(/^The reply said: "502 Bad Gateway"\. /);
	expectSubmitUnsureAdvice(result.error?.description);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: '502 HTML page on submit (task taken)',
		operation: 'image/generate',
		injected: 'submit: 502 HTML, acceptSubmit',
	});
});

test('Continue On Fail: an ambiguous submit failure costs its own item only, with no second submit', async () => {
	const sim = simulator();
	// The first submit passes untouched; the second one fails after the service took it.
	sim.addFault({ route: 'submit', delayMs: 0 });
	sim.addFault({ route: 'submit', status: 500, acceptSubmit: true });
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait({ maxConcurrency: 1 }, { prompt: PROMPT_FROM_ITEM }),
				continueOnFail: true,
			},
		],
		input: promptItems(3),
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(result.items[0].binary?.data).toBeDefined();
	expect(result.items[1].json).toMatchObject({ httpCode: '500', serviceCode: 500 });
	expect(result.items[1].json.error).toBe('The service could not complete the generation request');
	expect(String(result.items[1].json.requestId)).toMatch(/^req_/);
	expectSubmitUnsureAdvice(String(result.items[1].json.description));
	expect(result.items[2].binary?.data).toBeDefined();
	expect(requestsOn(sim, 'submit')).toHaveLength(3);
	// The ambiguous one was taken too: three tasks for three items, never a fourth.
	expect(sim.stats.submitsAccepted).toBe(3);
	const prompts = [...sim.tasks.values()].map((task) => task.body.prompt).sort();
	expect(prompts).toEqual(['item 0', 'item 1', 'item 2']);
	for (const index of [0, 2]) {
		expect(sim.tasks.get(String(result.items[index].json.task_id))?.body.prompt).toBe(
			`item ${index}`,
		);
	}
	finishCase(sim, result, {
		case: '500 on 2nd of 3 submits, Continue On Fail',
		operation: 'image/generateAndWait',
		injected: 'submit #2: 500, acceptSubmit',
		inputCount: 3,
	});
});

test.each([
	['analysis', 'analysis/analyze', 502, 'Bad Gateway'],
	['plan', 'aPlusPlan/create', 504, 'Gateway Timeout'],
] as const)(
	'a gateway page on %s is not retried: the service may be working on it behind the gateway',
	async (route, operation, status, text) => {
		const sim = simulator();
		sim.addFault({ route, status, body: 'html' });
		const result = await run(sim, {
			nodes: [{ parameters: route === 'analysis' ? analyze(sim) : plan(sim) }],
		});

		expect(result.error?.message).toBe(
			'A proxy or load balancer answered instead of the service [item 0]',
		);
		expect(result.error?.description).toMatch(
			new RegExp(`^The reply said: "${status} ${text}"\\. `),
		);
		expect(result.error?.description).toContain(
			'A proxy or load balancer answered in place of the service',
		);
		expect(result.error?.description).toContain('may have reached the service');
		expect(result.error?.context?.transient).toBe(true);
		expect(requestsOn(sim, route).map((entry) => entry.status)).toEqual([status]);
		expect(retriesLogged(result)).toBe(0);
		finishCase(sim, result, {
			case: `${status} HTML page on ${route}`,
			operation,
			injected: `${route}: ${status} HTML page`,
		});
	},
);

test.each([
	['analysis', 'analysis/analyze', 'analysis request'],
	['plan', 'aPlusPlan/create', 'A+ plan request'],
] as const)(
	'a 500 with the service envelope on %s is not retried: the service ran it',
	async (route, operation, label) => {
		const sim = simulator();
		sim.addFault({ route, status: 500 });
		const result = await run(sim, {
			nodes: [{ parameters: route === 'analysis' ? analyze(sim) : plan(sim) }],
		});

		expect(result.error?.message).toBe(`The service could not complete the ${label} [item 0]`);
		expect(result.error?.description).toMatch(
			/^The reply said: "Simulated 500"\. Request ID: req_[0-9a-f]+\. /,
		);
		expect(result.error?.description).toContain('The service could not complete the request');
		expect(result.error?.httpCode).toBe('500');
		expect(requestsOn(sim, route)).toHaveLength(1);
		expect(retriesLogged(result)).toBe(0);
		finishCase(sim, result, {
			case: `500 JSON envelope on ${route}`,
			operation,
			injected: `${route}: 500 {code, message, request_id}`,
		});
	},
);
