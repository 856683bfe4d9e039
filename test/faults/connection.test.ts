import { createServer } from 'node:net';

import { readPngInfo, startSimulator } from '../simulator';
import { binaryBytes } from '../harness/engine';
import { TEST_API_KEY, useSimulator } from '../harness/simulator';
import {
	analyze,
	generate,
	generateAndWait,
	plan,
	requestsOn,
	retriesLogged,
	run,
	shrinkFixedTimeouts,
	FAULT_SIMULATOR,
	expectSubmitUnsureAdvice,
} from './faultCase';
import { finishCase } from './faultTable';
import { keyLeaks } from './keyScan';

const simulator = useSimulator(FAULT_SIMULATOR);

let restoreTimeouts: (() => void) | undefined;
afterEach(() => {
	restoreTimeouts?.();
	restoreTimeouts = undefined;
});

async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return port;
}

test('a connection cut mid-body on a task query is retried', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', reset: 'midBody' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(retriesLogged(result)).toBe(1);
	expect(result.logs.some((line) => /taskQuery got ECONNRESET/.test(line.message))).toBe(true);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'reset mid-body on task query',
		operation: 'image/generateAndWait',
		injected: 'task: cut after half the body',
	});
});

test('a connection cut before any reply on a task query is retried', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', reset: 'beforeResponse' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'task')[0].status).toBe(0);
	expect(retriesLogged(result)).toBe(1);
	finishCase(sim, result, {
		case: 'reset before reply on task query',
		operation: 'image/generateAndWait',
		injected: 'task: cut before the status line',
	});
});

test('a download cut mid-body is fetched again and the stored image is whole', async () => {
	const sim = simulator();
	sim.addFault({ route: 'asset', reset: 'midBody' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'asset')).toHaveLength(2);
	const bytes = await binaryBytes(result, result.items[0]);
	const png = readPngInfo(bytes);
	expect([png.width, png.height]).toEqual([256, 256]);
	expect(result.items[0].binary?.data.fileSize).toBeDefined();
	finishCase(sim, result, {
		case: 'reset mid-body on download',
		operation: 'image/generateAndWait',
		injected: 'asset: cut after half the body',
	});
});

test('a cdn download cut mid-body is fetched again, still without the key', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'cdn' });
	sim.addFault({ route: 'cdn', reset: 'midBody' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	const cdn = requestsOn(sim, 'cdn');
	expect(cdn).toHaveLength(2);
	expect(cdn.every((entry) => entry.authorization === undefined)).toBe(true);
	expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBe(256);
	finishCase(sim, result, {
		case: 'reset mid-body on cdn download',
		operation: 'image/generateAndWait',
		injected: 'cdn: cut after half the body',
	});
});

test('a submit cut mid-body after the service took it is not retried: one task, a clear error', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', reset: 'midBody', acceptSubmit: true });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toMatch(/^The connection to the service broke \[item 0\]$/);
	expectSubmitUnsureAdvice(result.error?.description);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(sim.stats.byRoute.task ?? 0).toBe(0);
	finishCase(sim, result, {
		case: 'reset mid-body on submit (task taken)',
		operation: 'image/generateAndWait',
		injected: 'submit: cut mid-body, acceptSubmit',
	});
});

test('a submit cut before any reply is not retried either', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', reset: 'beforeResponse' });
	const result = await run(sim, { nodes: [{ parameters: generate() }] });

	expect(result.error?.message).toMatch(/^The connection to the service broke \[item 0\]$/);
	expectSubmitUnsureAdvice(result.error?.description);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(0);
	finishCase(sim, result, {
		case: 'reset before reply on submit',
		operation: 'image/generate',
		injected: 'submit: cut before the status line',
	});
});

test('a submit refused before anything was sent is retried: exactly one task once the service is up', async () => {
	const port = await freePort();
	const target = { baseUrl: `http://127.0.0.1:${port}`, apiKey: TEST_API_KEY };
	let late: Awaited<ReturnType<typeof startSimulator>> | undefined;
	const starting = new Promise<void>((resolve) => setTimeout(resolve, 150)).then(async () => {
		late = await startSimulator({ apiKey: TEST_API_KEY, port, taskDurationMs: 150 });
	});
	try {
		const result = await run(target, { nodes: [{ parameters: generate() }] });
		await starting;
		const sim = late!;

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(
			result.logs.some((line) => /submit got ECONNREFUSED; retry 1 of 3/.test(line.message)),
		).toBe(true);
		expect(requestsOn(sim, 'submit')).toHaveLength(1);
		expect(sim.stats.submitsAccepted).toBe(1);
		expect(result.items[0].json.task_id).toBe([...sim.tasks.keys()][0]);
		finishCase(sim, result, {
			case: 'connection refused on submit',
			operation: 'image/generate',
			injected: 'service down for the first submit (ECONNREFUSED)',
		});
	} finally {
		await starting;
		await late?.close();
	}
});

test.each([
	['analysis', 'analysis/analyze', 'analysis request'],
	['plan', 'aPlusPlan/create', 'A+ plan request'],
] as const)(
	'%s: a reply slower than the Timeout option is not retried and says how to raise it',
	async (route, operation, label) => {
		const sim = simulator();
		// Held far longer than the Timeout: the run must end on the Timeout, before the reply
		// would have come. The Timeout's clock is Node's own (real time) and starts before the
		// connection does, so it leaves a busy machine 2 s to get the request to the simulator.
		sim.addFault({ route, delayMs: 10_000 });
		const options = { timeout: 2 };
		const result = await run(sim, {
			nodes: [{ parameters: route === 'analysis' ? analyze(sim, options) : plan(sim, options) }],
		});

		expect(result.error?.message).toBe(`The service did not answer the ${label} in time [item 0]`);
		expect(result.error?.description).toContain("Raise 'Timeout'");
		expect(result.error?.description).toContain('120 seconds');
		expect(requestsOn(sim, route)).toHaveLength(1);
		expect(result.durationMs).toBeLessThan(10_000);
		finishCase(sim, result, {
			case: `slow ${route} past Timeout`,
			operation,
			injected: `${route}: reply after 10 s, Timeout 2 s`,
		});
	},
);

test('a submit reply slower than the submit timeout is not retried: one task, a clear error', async () => {
	const sim = simulator();
	// As above: 2 s for a busy machine to get the request there, the reply long after.
	sim.addFault({ route: 'submit', delayMs: 10_000 });
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({ submitTimeout: 2 }) }],
	});

	expect(result.error?.message).toBe(
		'The service did not answer the generation request in time [item 0]',
	);
	// No reply, so no request id from the service: the one the node sent is the one to quote.
	const sent = requestsOn(sim, 'submit')[0];
	expect(sent.requestIdHeader).toMatch(/^n8n-/);
	expectSubmitUnsureAdvice(
		result.error?.description,
		new RegExp(`request ID this node sent, ${sent.requestIdHeader}`),
	);
	expect(result.error?.description).toContain('Acceptance Timeout');
	expect(result.error?.context?.transient).toBe(true);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(sim.stats.byRoute.task ?? 0).toBe(0);
	finishCase(sim, result, {
		case: 'slow submit past timeout (task taken)',
		operation: 'image/generateAndWait',
		injected: 'submit: reply after 10 s, Submit Timeout 2 s',
	});
});

test('a task query slower than its timeout is retried', async () => {
	const sim = simulator();
	restoreTimeouts = shrinkFixedTimeouts({ 30_000: 2_000 });
	sim.addFault({ route: 'task', delayMs: 10_000 });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(
		result.logs.some((line) => /taskQuery got (ETIMEDOUT|ECONNABORTED|timeout)/.test(line.message)),
	).toBe(true);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'slow task query past timeout',
		operation: 'image/generateAndWait',
		injected: 'task: reply after 10 s, timeout cut to 2 s',
	});
});

test('a download slower than its timeout is retried', async () => {
	const sim = simulator();
	restoreTimeouts = shrinkFixedTimeouts({ 120_000: 2_000 });
	sim.addFault({ route: 'asset', delayMs: 10_000 });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'asset')).toHaveLength(2);
	expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBe(256);
	finishCase(sim, result, {
		case: 'slow download past timeout',
		operation: 'image/generateAndWait',
		injected: 'asset: reply after 10 s, timeout cut to 2 s',
	});
});

test('an analysis cut mid-body is not repeated: the service already did the work', async () => {
	const sim = simulator();
	sim.addFault({ route: 'analysis', reset: 'midBody' });
	const result = await run(sim, { nodes: [{ parameters: analyze(sim) }] });

	expect(result.error?.message).toMatch(/^The connection to the service broke \[item 0\]$/);
	expect(result.error?.description).toContain('connection broke');
	expect(result.error?.description).toMatch(/\(connection reset: ECONNRESET\)$/);
	expect(requestsOn(sim, 'analysis')).toHaveLength(1);
	finishCase(sim, result, {
		case: 'reset mid-body on analysis',
		operation: 'analysis/analyze',
		injected: 'analysis: cut after half the body',
	});
});

test('a host name that does not resolve: nothing was sent, so an analysis is tried again, then says so', async () => {
	const sim = simulator();
	const unresolvable = { baseUrl: 'http://product-image.invalid', apiKey: TEST_API_KEY };
	const result = await run(unresolvable, { nodes: [{ parameters: analyze(sim) }] });

	expect(result.error?.message).toMatch(/^Could not reach the service \[item 0\]$/);
	expect(result.error?.description).toContain('Nothing was sent');
	expect(result.error?.description).toContain('tried 4 times');
	expect(result.error?.description).toContain('Base URL');
	expect(retriesLogged(result)).toBe(3);
	expect(keyLeaks(result, sim.apiKey)).toEqual([]);
	// No row in the README table: whether the resolver says ENOTFOUND or EAI_AGAIN depends on the
	// machine's network, and the table must read the same everywhere.
});
