import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import type { INodeParameters } from 'n8n-workflow';

import { DEFAULT_VERSION } from '../../nodes/ProductImage/descriptions/versions';
import type { NodeSpec, RunResult } from '../harness/engine';
import { runWorkflow } from '../harness/engine';
import { currentVersionOptions, pairedIndexes } from '../harness/fixtures';
import { credentialsFor, TEST_API_KEY, useSimulator } from '../harness/simulator';
import { startForeignOrigin } from '../simulator/foreign-origins';
import { advanceVirtualClock, onVirtualClock, useVirtualClock } from '../harness/virtualClock';

// A check that could not be made is not a failed task. A wait looks through a service that is
// briefly down (a proxy's 503 page, a 429 storm) until Max Wait Time; when the time runs out first
// the outcome is the wait's own timeout, and only the service's own word fails a task. Every item
// that did not end well says which it is in `outcome`: `final`, `lookAgainLater` or `unknown`.

const simulator = useSimulator();
// Max Wait Time, back-offs and Retry-After on one clock the test moves, and the back-off's jitter
// drawn at its middle: every time below is exact.
useVirtualClock();
beforeEach(() => {
	jest.spyOn(Math, 'random').mockReturnValue(0.5);
});
afterEach(() => {
	jest.restoreAllMocks();
});

type Sim = ReturnType<typeof simulator>;

/** Task → Wait for Completion as the collect example sets it up (the current version, Continue On Fail). */
function collectWait(taskId: string, options: INodeParameters = {}): NodeSpec {
	return {
		typeVersion: DEFAULT_VERSION,
		continueOnFail: true,
		parameters: {
			resource: 'task',
			operation: 'wait',
			taskId,
			options: currentVersionOptions({
				imagesOutput: 'together',
				maxWaitTime: 8,
				onTimeout: 'outputTaskState',
				...options,
			}),
		},
	};
}

/** Generate and Wait of the current version, with its defaults (Initial Delay 5 s, Adaptive). */
function generateAndWait(options: INodeParameters = {}): NodeSpec {
	return {
		typeVersion: DEFAULT_VERSION,
		continueOnFail: true,
		parameters: {
			resource: 'image',
			operation: 'generateAndWait',
			prompt: 'studio shot',
			options: currentVersionOptions({ maxWaitTime: 8, ...options }),
		},
	};
}

async function run(sim: Sim, node: NodeSpec): Promise<RunResult> {
	return await onVirtualClock(runWorkflow({ credentials: credentialsFor(sim), nodes: [node] }));
}

/** A task submitted by an earlier run (Submit Generation), as a collect sweep finds it. */
async function submittedTask(sim: Sim, config: Parameters<Sim['configure']>[0]): Promise<string> {
	sim.configure(config);
	const submitted = await run(sim, {
		parameters: { resource: 'image', operation: 'generate', prompt: 'bottle' },
	});
	sim.stats.requests.length = 0;
	return String(submitted.items[0].json.task_id);
}

const taskQueries = (sim: Sim) => sim.stats.requests.filter((request) => request.route === 'task');

/** The task answers (a fault that only delays leaves the genuine reply), then a proxy's page. */
function outageAfterFirstLook(sim: Sim): void {
	sim.addFault({ route: 'task', delayMs: 0 });
	sim.addFault({ route: 'task', status: 503, body: 'html', times: Infinity });
}

describe('a service that stays down until Max Wait Time', () => {
	// Task → Wait looks at once; Generate and Wait after its Initial Delay (5 s). Each look is
	// one query's attempts (back-off 0.75 s, 1.5 s, 3 s, … at the jitter's middle) until the next
	// would pass Max Wait Time.
	test.each([
		['Task → Wait for Completion', 'task', [0, 750, 2_250, 5_250]],
		['Generate and Wait', 'image', [5_000, 5_750, 7_250]],
	])(
		'%s, On Timeout → Stop: every status query a 503 page ends in the timeout error naming the task, not a failed task',
		async (_name, resource, looks) => {
			const sim = simulator();
			const node =
				resource === 'task'
					? collectWait(await submittedTask(sim, { taskOutcome: 'never' }), {
							onTimeout: 'error',
						})
					: generateAndWait();
			sim.configure({ taskOutcome: 'never' });
			sim.addFault({ route: 'task', status: 503, body: 'html', times: Infinity });
			const started = Date.now();
			const result = await run(sim, node);

			const [taskId] = [...sim.tasks.keys()];
			expect(result.error).toBeUndefined();
			expect(result.items).toHaveLength(1);
			const item = result.items[0].json;
			expect(item.error).toBe(`The service did not answer about task ${taskId} within 8 s`);
			expect(item.description).toContain(
				'A proxy or load balancer answered instead of the service',
			);
			expect(item.description).toContain('It reported no status in this wait.');
			expect(item.description).toContain(
				`Look again later: resume with 'Task → Wait for Completion' and task ID ${taskId}`,
			);
			expect(item.description).toContain('3 days');
			expect(item).toMatchObject({ taskId, outcome: 'lookAgainLater' });
			expect(item.httpCode).toBeUndefined();
			// It kept looking, with its back-off, and never past Max Wait Time.
			expect(taskQueries(sim).map((query) => [query.at - started, query.status])).toEqual(
				looks.map((at) => [at, 503]),
			);
			expect(sim.stats.submitsAccepted).toBe(1);
		},
	);

	test('On Timeout → Output Task State: the task, timed out, with the status it last reported and the check that could not be made', async () => {
		const sim = simulator();
		sim.configure({ taskOutcome: 'never' });
		outageAfterFirstLook(sim);
		const result = await run(sim, generateAndWait({ onTimeout: 'outputTaskState' }));

		const [taskId] = [...sim.tasks.keys()];
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toEqual({
			task_id: taskId,
			status: 'processing',
			timed_out: true,
			waited_seconds: 8,
			outcome: 'lookAgainLater',
			last_check_error: 'A proxy or load balancer answered instead of the service',
		});
		// The look at 5 s (Initial Delay) was answered; the last one, on the deadline, met the page.
		expect(taskQueries(sim).map((query) => query.status)).toEqual([200, 503]);
	});

	test('On Timeout → Output Task State: a wait that never got an answer says so (no status)', async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskOutcome: 'never' });
		sim.addFault({ route: 'task', status: 503, body: 'html', times: Infinity });
		const result = await run(sim, collectWait(taskId));

		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			task_id: taskId,
			status: null,
			timed_out: true,
			outcome: 'lookAgainLater',
			last_check_error: 'A proxy or load balancer answered instead of the service',
		});
		expect(result.items[0].json.error).toBeUndefined();
	});
});

test('Output → Simplified keeps what a timed-out task state is decided by: timed_out, outcome and the last check', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	outageAfterFirstLook(sim);
	const node = generateAndWait({ onTimeout: 'outputTaskState' });
	const result = await run(sim, {
		...node,
		parameters: { ...node.parameters, output: 'simplified' },
	});

	expect(result.items.map((item) => item.json)).toEqual([
		{
			task_id: [...sim.tasks.keys()][0],
			status: 'processing',
			timed_out: true,
			outcome: 'lookAgainLater',
			last_check_error: 'A proxy or load balancer answered instead of the service',
			waited_seconds: 8,
		},
	]);
});

describe('a status check that failed once, then answered again, then Max Wait Time ran out', () => {
	/** The first look is one query's five attempts, all 503 pages; every later look is answered. */
	async function failedThenAnswered(onTimeout: 'error' | 'outputTaskState') {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskOutcome: 'never' });
		sim.addFault({ route: 'task', status: 503, body: 'html', times: 5 });
		const result = await run(
			sim,
			collectWait(taskId, { polling: 'fixed', pollInterval: 5, maxWaitTime: 30, onTimeout }),
		);
		const statuses = taskQueries(sim).map((query) => query.status);
		expect(statuses.slice(0, 5)).toEqual(Array(5).fill(503));
		expect(statuses.slice(5).length).toBeGreaterThan(0);
		expect(statuses.slice(5).every((status) => status === 200)).toBe(true);
		expect(result.items).toHaveLength(1);
		return { taskId, item: result.items[0].json };
	}

	test('On Timeout → Stop: the timeout ("did not finish within"), not a service that did not answer', async () => {
		const { taskId, item } = await failedThenAnswered('error');

		expect(item.error).toBe('The task did not finish within 30 s');
		expect(item.description).toBe(
			`Its last status was "processing". The task goes on at the service: resume with 'Task → Wait for Completion' and task ID ${taskId}, or raise 'Max Wait Time'.`,
		);
		expect(item).toMatchObject({ taskId, outcome: 'lookAgainLater' });
	});

	test('On Timeout → Output Task State: the task state without a last_check_error from the earlier failure', async () => {
		const { taskId, item } = await failedThenAnswered('outputTaskState');

		expect(item).toEqual({
			task_id: taskId,
			status: 'processing',
			timed_out: true,
			waited_seconds: expect.any(Number),
			outcome: 'lookAgainLater',
		});
		// Not even as a field without a value: the next node lists an item's fields by name.
		expect(Object.keys(item)).toEqual([
			'task_id',
			'status',
			'timed_out',
			'waited_seconds',
			'outcome',
		]);
	});
});

describe('a 429 with Retry-After: 1 that arrives 0.6 s before Max Wait Time', () => {
	/** Looks at 0 s (answered) and 7.4 s (429): the pause the service asks for passes the 8 s. */
	async function rateLimitedAtTheEnd(onTimeout: 'error' | 'outputTaskState') {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskOutcome: 'never' });
		sim.addFault({ route: 'task', delayMs: 0 });
		sim.addFault({ route: 'task', status: 429, retryAfter: '1' });
		const started = Date.now();
		const result = await run(
			sim,
			collectWait(taskId, { polling: 'fixed', pollInterval: 7.4, onTimeout }),
		);
		expect(taskQueries(sim).map((query) => [query.at - started, query.status])).toEqual([
			[0, 200],
			[7_400, 429],
		]);
		// Ended at once: no waiting out a pause that ends after Max Wait Time.
		expect(result.durationMs).toBe(7_400);
		return { taskId, result };
	}

	test('On Timeout → Output Task State: the task state, not the rate limit', async () => {
		const { taskId, result } = await rateLimitedAtTheEnd('outputTaskState');

		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toEqual({
			task_id: taskId,
			status: 'submitted',
			timed_out: true,
			waited_seconds: 7.4,
			outcome: 'lookAgainLater',
			last_check_error: 'The service asked to slow down',
		});
	});

	test('On Timeout → Stop: the timeout error, not "Lower Max Concurrency"', async () => {
		const { taskId, result } = await rateLimitedAtTheEnd('error');

		const item = result.items[0].json;
		expect(item.error).toBe(`The service did not answer about task ${taskId} within 8 s`);
		expect(item.description).toContain('The service asked to slow down');
		expect(item.description).toContain('The last status it reported was "submitted".');
		expect(item.description).not.toContain('Max Concurrency');
		expect(item.outcome).toBe('lookAgainLater');
	});
});

test('an outage that ends within Max Wait Time: the task is collected as usual', async () => {
	const sim = simulator();
	const taskId = await submittedTask(sim, { taskDurationMs: 0 });
	// More pages than one query's own five attempts: the wait itself looks again.
	sim.addFault({ route: 'task', status: 503, body: 'html', times: 8 });
	const result = await run(sim, collectWait(taskId, { maxWaitTime: 60 }));

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({ task_id: taskId, status: 'succeeded' });
	expect(result.items[0].json.outcome).toBeUndefined();
	expect(result.items[0].json.timed_out).toBeUndefined();
	expect(result.items[0].binary?.data_0).toBeDefined();
	expect(taskQueries(sim).map((query) => query.status)).toEqual([...Array(8).fill(503), 200]);
});

test("a 5xx on one item's status check pauses that item's retry only; the other item keeps looking", async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 3_000 });
	sim.addFault({ route: 'task', status: 503, retryAfter: '2' });
	const result = await onVirtualClock(
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ initialDelay: 0, polling: 'fixed', pollInterval: 0.5 })],
			input: [{ json: {} }, { json: {} }],
		}),
	);

	expect(result.items.map((item) => item.json.status)).toEqual(['succeeded', 'succeeded']);
	const queries = taskQueries(sim);
	const refused = queries.find((query) => query.status === 503)!;
	// On the virtual clock: each query of a task, in ms from the 503.
	const looks = (same: boolean) =>
		queries
			.filter((query) => (query.path === refused.path) === same && query !== refused)
			.map((query) => query.at - refused.at);
	// The refused query is asked again once the 2 s it was told to wait are over ...
	expect(looks(true)[0]).toBe(2_000);
	// ... while the other item's looks go on at its Poll Interval through those 2 s.
	expect(looks(false).filter((at) => at < 2_000)).toEqual([0, 500, 1_000, 1_500]);
});

describe('the outcome field of a Continue On Fail item', () => {
	test('a task the service reports failed: final', async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskDurationMs: 0, taskOutcome: 'fail' });
		const result = await run(sim, collectWait(taskId));

		expect(result.items[0].json).toMatchObject({
			error: 'The service could not complete the task',
			taskId,
			outcome: 'final',
		});
	});

	test('a task the service does not know (404): final', async () => {
		const sim = simulator();
		const result = await run(sim, collectWait('task_0000000000000000deadbeef'));

		expect(result.items[0].json).toMatchObject({
			error: 'The service does not know this task',
			taskId: 'task_0000000000000000deadbeef',
			outcome: 'final',
		});
	});

	test("a proxy's 404 page on a task query is not the service's word: look again later", async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskDurationMs: 0 });
		sim.addFault({ route: 'task', status: 404, body: 'html' });
		const result = await run(sim, collectWait(taskId));

		expect(result.items[0].json).toMatchObject({
			error: 'A proxy or load balancer answered instead of the service',
			taskId,
			outcome: 'lookAgainLater',
		});
		// The wait ended on a failure that looking again within it would not mend: its error still
		// names the task, paid for, and how to resume it.
		expect(String(result.items[0].json.description)).toContain(
			`resume with 'Task → Wait for Completion' and task ID ${taskId} instead of generating again`,
		);
	});

	test('images the service says are gone (410): final, looking again gives the same', async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskDurationMs: 0, expireAfterMs: 1 });
		// A sweep after its images expired.
		await advanceVirtualClock(1_000);
		const result = await run(sim, collectWait(taskId));

		expect(result.items[0].json).toMatchObject({
			error: 'The image URL no longer exists',
			taskId,
			outcome: 'final',
		});
	});

	test('a finished task whose result the node cannot read: final, the reply is quoted in the error', async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskDurationMs: 0, resultImages: 'unreadable' });
		const result = await run(sim, collectWait(taskId));

		expect(result.items[0].json).toMatchObject({
			error: 'The finished task holds no downloadable image URLs',
			taskId,
			outcome: 'final',
		});
	});

	test('a status check answered with a reply the node cannot read: final, the reply is quoted in the error', async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskDurationMs: 0, statusField: 'none' });
		const result = await run(sim, collectWait(taskId));

		expect(result.items[0].json).toMatchObject({
			error: "The service's reply to the status check lacks fields this node needs",
			taskId,
			outcome: 'final',
		});
		expect(String(result.items[0].json.description)).toContain(`"task_id":"${taskId}"`);
	});

	test("a finished task's images that cannot be downloaded: look again later", async () => {
		const sim = simulator();
		const taskId = await submittedTask(sim, { taskDurationMs: 0 });
		sim.addFault({ route: 'asset', status: 503, times: Infinity });
		const result = await run(sim, collectWait(taskId));

		expect(result.items).toHaveLength(1);
		expect(pairedIndexes(result.items)).toEqual([0]);
		expect(result.items[0].json).toMatchObject({
			error: 'The service could not complete the image download',
			taskId,
			outcome: 'lookAgainLater',
		});
		expect(String(result.items[0].json.description)).toContain(
			`Collect the images with 'Task → Wait for Completion' and this task ID`,
		);
	});

	test.each([
		[
			'a gateway page on a submit the service took',
			{ status: 502, body: 'html', acceptSubmit: true },
			'unknown',
		],
		['a submit whose reply never came', { reset: 'beforeResponse' }, 'unknown'],
		[
			'a submit answered without a task ID',
			{ status: 200, body: 'error', acceptSubmit: true },
			'unknown',
		],
		[
			'a 429 storm on submit: nothing was created',
			{ status: 429, retryAfter: '0', times: Infinity },
			'lookAgainLater',
		],
		['a submit the service refused (400)', { status: 400 }, 'final'],
	] as const)('%s: %s', async (_case, fault, outcome) => {
		const sim = simulator();
		sim.addFault({ route: 'submit', ...fault });
		const result = await run(sim, {
			typeVersion: DEFAULT_VERSION,
			continueOnFail: true,
			parameters: { resource: 'image', operation: 'generate', prompt: 'bottle' },
		});

		expect(result.items).toHaveLength(1);
		expect(result.items[0].json.outcome).toBe(outcome);
		expect(result.items[0].json.task_id).toBeUndefined();
		if (outcome === 'unknown')
			expect(String(result.items[0].json.requestId)).toMatch(/^(req_|n8n-)/);
	});
});

describe('the outcome of a submit the service cannot have taken', () => {
	const submit: NodeSpec = {
		typeVersion: DEFAULT_VERSION,
		continueOnFail: true,
		parameters: { resource: 'image', operation: 'generate', prompt: 'bottle' },
	};

	test('a connection that never opened: nothing was made, so it may be sent again later', async () => {
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		await new Promise((resolve) => server.close(resolve));
		const result = await onVirtualClock(
			runWorkflow({
				credentials: { baseUrl: `http://127.0.0.1:${port}`, apiKey: TEST_API_KEY },
				nodes: [submit],
			}),
		);

		expect(result.items[0].json).toMatchObject({
			error: 'Could not reach the service',
			outcome: 'lookAgainLater',
		});
	});

	test('a run canceled while a submit waits out a 429: nothing was sent after the refusal, so it may be sent again later', async () => {
		const sim = simulator();
		sim.addFault({ route: 'submit', status: 429, retryAfter: '8' });
		const result = await onVirtualClock(
			runWorkflow({ credentials: credentialsFor(sim), nodes: [submit], cancelAfterMs: 1_000 }),
		);

		expect(sim.stats.requests.map((request) => [request.route, request.status])).toEqual([
			['submit', 429],
		]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toEqual({
			error: 'The execution was canceled',
			description:
				"Nothing more was sent for this item. Generations the service already accepted are billed. Collect the images with 'Task → Wait for Completion' and the task IDs in the n8n log instead of generating again, which would bill again.",
			outcome: 'lookAgainLater',
		});
	});

	test('a redirected submit: the service did not take it, and sending it again changes nothing', async () => {
		const sim = simulator();
		const redirecting = await startForeignOrigin('redirect', { redirectTo: sim.baseUrl });
		try {
			const result = await onVirtualClock(
				runWorkflow({
					credentials: { baseUrl: redirecting.baseUrl, apiKey: sim.apiKey },
					nodes: [submit],
				}),
			);

			expect(result.items[0].json).toMatchObject({
				error: 'The service redirected the generation request',
				outcome: 'final',
			});
			expect(sim.stats.submitsAccepted).toBe(0);
		} finally {
			await redirecting.close();
		}
	});
});
