import { createServer } from 'node:net';
import type { IExecuteFunctions, INodeParameters } from 'n8n-workflow';

import { serviceAccess } from '../../nodes/ProductImage/transport/request';
import type { ErrorShape, FaultRoute, Simulator } from '../simulator';
import { readPngInfo, startSimulator } from '../simulator';
import { pairedIndexes, photoItem } from '../harness/fixtures';
import { binaryBytes } from '../harness/engine';
import { TEST_API_KEY, useSimulator } from '../harness/simulator';
import {
	analyze,
	download,
	generateAndWait,
	hintsOf,
	plan,
	PROMPT_FROM_ITEM,
	promptItems,
	requestsOn,
	retriesLogged,
	run,
	seedTask,
	FAULT_SIMULATOR,
	shrinkFixedTimeouts,
} from './faultCase';
import { finishCase } from './faultTable';
import { authorizationOrigins, keyLeaks, surfacesOf } from './keyScan';

const simulator = useSimulator(FAULT_SIMULATOR);

interface EchoCase {
	route: FaultRoute;
	status: number;
	shape: ErrorShape;
	operation: string;
	parameters: (sim: Simulator) => INodeParameters;
	input?: () => ReturnType<typeof photoItem>[];
	prepare?: (sim: Simulator) => void;
}

const echoCases: EchoCase[] = [
	{
		route: 'submit',
		status: 400,
		shape: 'envelope',
		operation: 'image/generateAndWait',
		parameters: () => generateAndWait(),
	},
	{
		route: 'task',
		status: 403,
		shape: 'msg',
		operation: 'image/generateAndWait',
		parameters: () => generateAndWait(),
	},
	{
		route: 'asset',
		status: 403,
		shape: 'nested',
		operation: 'image/generateAndWait',
		parameters: () => generateAndWait(),
		prepare: (sim) => sim.configure({ assetsRequireAuth: true }),
	},
	{
		route: 'upload',
		status: 400,
		shape: 'nested',
		operation: 'image/upload',
		parameters: () => ({ resource: 'image', operation: 'upload', binaryPropertyName: 'data' }),
		input: () => [photoItem()],
	},
	{
		route: 'analysis',
		status: 400,
		shape: 'detail',
		operation: 'analysis/analyze',
		parameters: (sim) => analyze(sim),
	},
	{
		route: 'plan',
		status: 500,
		shape: 'msg',
		operation: 'aPlusPlan/create',
		parameters: (sim) => plan(sim),
	},
];

test.each(echoCases)(
	'an error body echoing the request headers on $route ($status, $shape shape) shows the message without the key',
	async ({ route, status, shape, operation, parameters, input, prepare }) => {
		const sim = simulator();
		sim.configure({ errorShape: shape });
		prepare?.(sim);
		sim.addFault({ route, status, body: 'echoHeaders' });
		const result = await run(sim, { nodes: [{ parameters: parameters(sim) }], input: input?.() });

		// The echo reached the user in the description, with the header itself masked; the title
		// holds none of it.
		expect(result.error?.message).toMatch(/\[item 0\]$/);
		expect(result.error?.message).not.toContain('request headers');
		expect(result.error?.description).toContain('request headers were');
		expect(result.error?.description).toMatch(/Authorization: (Bearer )?\[redacted\]/i);
		const echoed = requestsOn(sim, route).find((entry) => entry.status === status);
		expect(echoed?.authorization).toBe(`Bearer ${sim.apiKey}`);
		expect(keyLeaks(result, sim.apiKey)).toEqual([]);
		finishCase(sim, result, {
			case: `headers echoed in a ${status} (${shape})`,
			operation,
			injected: `${route}: ${status} echoing request headers`,
		});
	},
);

test('Continue On Fail: error items built from echoed headers carry no key', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 422, body: 'echoHeaders', times: 2 });
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait({ maxConcurrency: 1 }, { prompt: PROMPT_FROM_ITEM }),
				continueOnFail: true,
			},
		],
		input: promptItems(3),
	});

	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	for (const index of [0, 1]) {
		expect(String(result.items[index].json.description)).toContain('Authorization: [redacted]');
		expect(result.items[index].json.httpCode).toBe('422');
	}
	expect(result.items[2].binary?.data).toBeDefined();
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(JSON.stringify(result.items)).not.toContain(sim.apiKey);
	finishCase(sim, result, {
		case: 'headers echoed, Continue On Fail',
		operation: 'image/generateAndWait',
		injected: 'submit: 2 × 422 echoing headers',
		inputCount: 3,
	});
});

test('retries after echoed headers: log lines, hints and the final error stay clean', async () => {
	const sim = simulator();
	sim.configure({ errorShape: 'detail' });
	sim.addFault({ route: 'task', status: 503, body: 'echoHeaders', times: Infinity });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait({ maxWaitTime: 1.4 }) }] });

	expect(result.error?.description).toContain('request headers were');
	// The task was paid for: the error says it goes on and how to collect it.
	expect(result.error?.description).toContain(
		"it goes on at the service. Look again later: resume with 'Task → Wait for Completion'",
	);
	expect(retriesLogged(result)).toBe(1);
	const surfaces = surfacesOf(result);
	expect(surfaces.logs).toContain('taskQuery got HTTP 503');
	expect(surfaces.logs).not.toContain(sim.apiKey);
	expect(keyLeaks(result, sim.apiKey)).toEqual([]);
	// Queries go on until Max Wait Time (missed looks), so their count depends on timing.
	expect(requestsOn(sim, 'task').length).toBeLessThanOrEqual(3);
	finishCase(sim, result, {
		case: 'headers echoed in retried 503s',
		operation: 'image/generateAndWait',
		injected: 'task: 503 × ∞ echoing headers',
		bounded: { task: 3 },
	});
});

test('a recovered run with echoed headers: the execution hint names the retries, not the key', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 429, retryAfter: '0', body: 'echoHeaders' });
	sim.addFault({ route: 'asset', status: 500, body: 'echoHeaders' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	const hints = JSON.stringify(hintsOf(result));
	expect(hints).toContain('2 request(s) were retried after HTTP 429, HTTP 500');
	expect(hints).not.toContain(sim.apiKey);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'headers echoed, then recovered',
		operation: 'image/generateAndWait',
		injected: 'submit 429 + asset 500, both echoing headers',
	});
});

test('a redirect to the cdn: the key goes to the service origin, never to the cdn', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'redirect', assetsRequireAuth: true });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	const [asset] = requestsOn(sim, 'asset');
	expect(asset.status).toBe(302);
	expect(asset.authorization).toBe(`Bearer ${sim.apiKey}`);
	const [cdn] = requestsOn(sim, 'cdn');
	expect(cdn.status).toBe(200);
	expect(cdn.authorization).toBeUndefined();
	expect(authorizationOrigins(sim)).toEqual(['main']);
	expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBe(256);
	finishCase(sim, result, {
		case: 'redirect to a second origin',
		operation: 'image/generateAndWait',
		injected: 'asset: 302 to the cdn (downloads redirect)',
	});
});

test('redirects for several items at once: every image arrives, in order, none with the key at the cdn', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'redirect', imagesPerTask: 2 });
	sim.addFault({ route: 'cdn', status: 503 });
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait({ maxConcurrency: 3 }, { prompt: PROMPT_FROM_ITEM }),
				continueOnFail: true,
			},
		],
		input: promptItems(3),
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(6);
	expect(pairedIndexes(result.items)).toEqual([0, 0, 1, 1, 2, 2]);
	for (const [position, item] of result.items.entries()) {
		expect(sim.tasks.get(String(item.json.task_id))?.body.prompt).toBe(
			`item ${Math.floor(position / 2)}`,
		);
		expect(item.json.image_index).toBe(position % 2);
		expect(item.binary?.data).toBeDefined();
	}
	expect(requestsOn(sim, 'cdn')).toHaveLength(7);
	expect(requestsOn(sim, 'cdn').every((entry) => entry.authorization === undefined)).toBe(true);
	expect(sim.stats.submitsAccepted).toBe(3);
	finishCase(sim, result, {
		case: 'redirects, 3 items × 2 images',
		operation: 'image/generateAndWait',
		injected: 'asset 302 to the cdn, cdn: one 503',
		inputCount: 3,
	});
});

test('Image → Download of a pre-signed cdn address sends no key there', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'cdn' });
	const { url } = await seedTask(sim);
	expect(url.startsWith(sim.cdnUrl)).toBe(true);
	const result = await run(sim, { nodes: [{ parameters: download(url) }] });

	expect(result.error).toBeUndefined();
	expect(requestsOn(sim, 'cdn')).toHaveLength(1);
	expect(authorizationOrigins(sim)).toEqual([]);
	finishCase(sim, result, {
		case: 'download from another origin',
		operation: 'image/download',
		injected: 'pre-signed cdn address',
	});
});

test('an error page from the cdn that lists the request headers shows no Authorization header at all', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'cdn' });
	sim.addFault({ route: 'cdn', status: 403, body: 'echoHeaders' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe(
		`${new URL(sim.cdnUrl).host} refused the image download [item 0]`,
	);
	expect(result.error?.description).toMatch(/^The reply said: "InternalError: Simulated 403/);
	expect(result.error?.description).toContain('request headers were');
	expect(result.error?.description).not.toMatch(/authorization/i);
	// A page dump reads as one line.
	expect(result.error?.description).not.toContain('\n');
	expect(requestsOn(sim, 'cdn')).toHaveLength(1);
	finishCase(sim, result, {
		case: 'cdn error page echoing headers',
		operation: 'image/generateAndWait',
		injected: 'cdn: 403 XML echoing headers',
	});
});

test('the key scan itself finds a key wherever it is put (a control for the checks above)', async () => {
	const sim = simulator();
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });
	expect(keyLeaks(result, sim.apiKey)).toEqual([]);

	result.logs.push({
		level: 'debug',
		message: 'header',
		metadata: { authorization: `Bearer ${sim.apiKey}` },
	});
	result.items[0].json.note = `…${sim.apiKey.slice(-12)}`;
	expect(keyLeaks(result, sim.apiKey)).toEqual(
		expect.arrayContaining(['logs contains the key', 'items contains part of the key']),
	);
});

describe('a request to another host names that host, never the credential', () => {
	let restoreTimeouts: (() => void) | undefined;
	afterEach(() => {
		restoreTimeouts?.();
		restoreTimeouts = undefined;
	});

	const expectForeignAdvice = (description: string | undefined, host: string) => {
		expect(description).toContain(host);
		expect(description).toContain(
			"It is not the service's host, so the Product Image credential is not the cause.",
		);
		expect(description).not.toContain('Base URL');
	};

	/** A port on this machine that nothing listens on. */
	const closedPort = async () =>
		await new Promise<number>((resolve) => {
			const server = createServer();
			server.listen(0, '127.0.0.1', () => {
				const { port } = server.address() as { port: number };
				server.close(() => resolve(port));
			});
		});

	test('Image → Download of an address whose host does not resolve', async () => {
		const sim = simulator();
		const result = await run(sim, {
			nodes: [{ parameters: download('https://images.shop.invalid/products/bottle.jpg') }],
		});

		expect(result.error?.message).toBe('Could not reach images.shop.invalid [item 0]');
		expect(result.error?.description).toContain(
			'The name images.shop.invalid was not found: check it for a typo, and that the server n8n runs on can look names up (DNS)',
		);
		expectForeignAdvice(result.error?.description, 'images.shop.invalid');
		expect(sim.stats.requests).toHaveLength(0);
		finishCase(sim, result, {
			case: 'unknown host of a given address',
			operation: 'image/download',
			injected: 'https://images.shop.invalid/… (ENOTFOUND)',
		});
	});

	test('Image → Download of an address whose host refuses the connection', async () => {
		const sim = simulator();
		const host = `127.0.0.1:${await closedPort()}`;
		const result = await run(sim, {
			nodes: [{ parameters: download(`http://${host}/products/bottle.jpg`) }],
		});

		expect(result.error?.message).toBe(`Could not reach ${host} [item 0]`);
		expect(result.error?.description).toContain(`Nothing answers at ${host}`);
		expect(result.error?.description).toContain('(connection refused: ECONNREFUSED)');
		expectForeignAdvice(result.error?.description, host);
		expect(sim.stats.requests).toHaveLength(0);
		finishCase(sim, result, {
			case: 'refused by the host of a given address',
			operation: 'image/download',
			injected: 'a closed port on another origin (ECONNREFUSED)',
		});
	});

	test('Image → Download of an https address whose host speaks plain http fails at once, as TLS', async () => {
		const sim = simulator();
		const host = new URL(sim.cdnUrl).host;
		const result = await run(sim, {
			nodes: [{ parameters: download(`https://${host}/products/bottle.jpg`) }],
		});

		expect(result.error?.message).toBe(
			`Could not open a secure (https) connection to ${host} [item 0]`,
		);
		expect(result.error?.description).toContain(`${host} did not open a secure connection`);
		expect(result.error?.description).toMatch(
			/\(secure connection failed: (EPROTO|ERR_SSL_\w+)\)$/,
		);
		expectForeignAdvice(result.error?.description, host);
		// A TLS failure repeats itself: tried once.
		expect(retriesLogged(result)).toBe(0);
		finishCase(sim, result, {
			case: 'TLS failure at the host of a given address',
			operation: 'image/download',
			injected: 'https:// to a plain-http origin',
		});
	});

	test('a result image on another host that does not answer in time', async () => {
		const sim = simulator();
		sim.configure({ downloads: 'cdn' });
		restoreTimeouts = shrinkFixedTimeouts({ 120_000: 2_000 });
		sim.addFault({ route: 'cdn', delayMs: 10_000, times: Infinity });
		const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

		const host = new URL(sim.cdnUrl).host;
		expect(result.error?.message).toBe(`${host} did not answer in time [item 0]`);
		expect(result.error?.description).toContain(
			`${host} did not answer in time. It was tried 5 times.`,
		);
		expect(result.error?.description).toMatch(
			/Task task_\w+ succeeded; its image URLs are valid 3 days\. Collect the images with 'Task → Wait for Completion'/,
		);
		expectForeignAdvice(result.error?.description, host);
		expect(requestsOn(sim, 'cdn')).toHaveLength(5);
		finishCase(sim, result, {
			case: 'timeout at the cdn a result points to',
			operation: 'image/generateAndWait',
			injected: 'cdn: reply after 10 s × ∞, timeout cut to 2 s',
		});
	});

	test('a redirect to another host that cuts the connection names the host the redirect led to', async () => {
		const sim = simulator();
		sim.configure({ downloads: 'redirect' });
		sim.addFault({ route: 'cdn', reset: 'beforeResponse', times: Infinity });
		const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

		const cdnHost = new URL(sim.cdnUrl).host;
		expect(result.error?.message).toBe(`The connection to ${cdnHost} broke [item 0]`);
		expect(result.error?.description).toContain(
			`The connection to ${cdnHost} broke before the image was complete.`,
		);
		expect(result.error?.description).toMatch(
			/Task task_\w+ succeeded; its image URLs are valid 3 days\. Collect the images with 'Task → Wait for Completion'/,
		);
		expectForeignAdvice(result.error?.description, cdnHost);
		expect(requestsOn(sim, 'asset')).toHaveLength(5);
		expect(requestsOn(sim, 'cdn')).toHaveLength(5);
		finishCase(sim, result, {
			case: 'redirect to a cdn that cuts the connection',
			operation: 'image/generateAndWait',
			injected: 'asset 302 to the cdn, cdn: cut before the status line × ∞',
		});
	});
});

describe("the key goes to the Base URL's own origin, never to one that only looks like it", () => {
	const isServiceUrl = async (baseUrl: string, url: string) => {
		const context = {
			getCredentials: async () => ({ baseUrl, apiKey: TEST_API_KEY }),
			getNode: () => ({ name: 'Product Image' }),
		} as unknown as IExecuteFunctions;
		return (await serviceAccess(context)).isServiceUrl(url);
	};

	test.each([
		['http://sim.test', 'http://sim.test/v1/open/assets/a.png', true],
		['http://sim.test', 'http://SIM.test:80/v1/open/assets/a.png', true],
		['http://sim.test', 'http://sim.test.other/a.png', false],
		['http://sim.test', 'http://sim.test:8080/a.png', false],
		['http://sim.test', 'https://sim.test/a.png', false],
		['http://sim.test', 'http://sim.test@cdn.test/a.png', false],
		['http://127.0.0.1:4123', 'http://127.0.0.1:41230/a.png', false],
	])('Base URL %s: %s gets the key: %s', async (baseUrl, url, sent) => {
		expect(await isServiceUrl(baseUrl, url)).toBe(sent);
	});

	/** The cdn on the service's port with a 0 added (2345 and 23450): its origin starts with the service's. */
	async function lookAlikeSimulator(): Promise<Simulator> {
		for (let attempt = 1; ; attempt++) {
			const port = 1100 + Math.floor(Math.random() * 2100);
			try {
				const options = { ...FAULT_SIMULATOR, apiKey: TEST_API_KEY, port, cdnPort: port * 10 };
				return await startSimulator(options);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 20) throw error;
			}
		}
	}

	let sim: Simulator;
	beforeAll(async () => {
		sim = await lookAlikeSimulator();
	});
	afterEach(() => sim.reset());
	afterAll(async () => await sim.close());

	test.each([
		['result images on', 'task: result URLs', { downloads: 'cdn' }],
		['a redirect to', 'asset: 302', { downloads: 'redirect', assetsRequireAuth: true }],
	] as const)(
		"%s an origin that starts with the service's: the images arrive, the key stays with the service",
		async (label, injected, config) => {
			expect(sim.cdnUrl.startsWith(sim.baseUrl)).toBe(true);
			sim.configure(config);
			const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

			expect(result.error).toBeUndefined();
			expect(requestsOn(sim, 'cdn').map((entry) => entry.authorization)).toEqual([undefined]);
			finishCase(sim, result, {
				case: `${label} an origin that starts with the service's`,
				operation: 'image/generateAndWait',
				injected: `${injected} to the cdn, on the service's port with a 0 added`,
			});
		},
	);
});
