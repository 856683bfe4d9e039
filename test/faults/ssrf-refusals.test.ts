import type { INodeParameters } from 'n8n-workflow';

import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';
import { photoItem } from '../harness/fixtures';
import type { RunResult } from '../harness/engine';
import { testCredential } from '../harness/credentialTester';
import { useSimulator } from '../harness/simulator';
import type { Simulator } from '../simulator';
import {
	analyze,
	clearStats,
	download,
	generate,
	plan,
	requestsOn,
	retriesLogged,
	run,
	taskGet,
	taskWait,
	FAULT_SIMULATOR,
	expectSubmitUnsureAdvice,
} from './faultCase';
import { finishCase } from './faultTable';

// n8n's own SSRF protection, switched on as a hardened install does: loopback is in its default
// blocked ranges, so the simulator at 127.0.0.1 is refused before any connection. The name
// `localhost` is allowed, the way an operator allows the service: through it the service answers
// while its CDN (an address on 127.0.0.1) stays blocked. n8n-core reads these settings once, when
// a run first sends a request; jest gives each test file its own copy of the environment.
process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
process.env.N8N_SSRF_ALLOWED_HOSTNAMES = 'localhost';
process.env.N8N_SSRF_BLOCKED_HOSTNAMES = 'images.store.example';

const simulator = useSimulator(FAULT_SIMULATOR);

const IP_RANGE_ADVICE =
	'n8n did not connect: 127.0.0.1 is in an IP range this n8n blocks (N8N_SSRF_BLOCKED_IP_RANGES).';
const ALLOW_LOOPBACK =
	'An n8n administrator can allow it by adding 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES and restarting n8n.';
const NOTHING_BILLED = 'Nothing was sent to the service, so nothing was billed.';

const onCurrent = (parameters: INodeParameters) => ({ parameters, typeVersion: CURRENT });

/** The service allowed by its name: what an operator who allowed it sees. */
function allowedByName(sim: Simulator) {
	return { baseUrl: sim.baseUrl.replace('127.0.0.1', 'localhost'), apiKey: sim.apiKey };
}

/** n8n's refusal, worded as n8n's, once, at once: nothing the service or the network did. */
function expectRefusal(result: RunResult, host: string, advice: string[]): void {
	expect(result.error?.message).toBe(`n8n's SSRF protection blocked ${host} [item 0]`);
	for (const words of advice) expect(result.error?.description).toContain(words);
	expect(result.error?.description).not.toMatch(/may have created|Try again later|connection/i);
	expect(result.error?.context?.mayHaveCreatedTask).toBeUndefined();
	expect(result.error?.context?.transient).toBeUndefined();
	expect(retriesLogged(result)).toBe(0);
}

describe('the service on an address n8n blocks', () => {
	test.each([
		['submit', 'image/generate', () => generate()],
		['analysis', 'analysis/analyze', (sim: Simulator) => analyze(sim)],
		[
			'plan',
			'aPlusPlan/create',
			(sim: Simulator) => ({ ...plan(sim), descriptionSource: 'define' }),
		],
	] as const)(
		'%s: refused by n8n, not sent, not retried, nothing billed',
		async (route, operation, parameters) => {
			const sim = simulator();
			const result = await run(sim, { nodes: [onCurrent(parameters(sim))] });

			expectRefusal(result, '127.0.0.1', [IP_RANGE_ADVICE, NOTHING_BILLED, ALLOW_LOOPBACK]);
			expect(sim.stats.requests).toHaveLength(0);
			finishCase(sim, result, {
				case: `${route} to a blocked address`,
				operation,
				injected: 'SSRF protection on, 127.0.0.0/8 blocked',
			});
		},
	);

	test('upload: refused by n8n, not retried', async () => {
		const sim = simulator();
		const result = await run(sim, {
			nodes: [onCurrent({ resource: 'image', operation: 'upload', binaryPropertyName: 'data' })],
			input: [photoItem()],
		});

		expectRefusal(result, '127.0.0.1', [IP_RANGE_ADVICE, 'Nothing was sent.', ALLOW_LOOPBACK]);
		expect(result.error?.description).not.toContain('billed');
		expect(sim.stats.requests).toHaveLength(0);
		finishCase(sim, result, {
			case: 'upload to a blocked address',
			operation: 'image/upload',
			injected: 'SSRF protection on, 127.0.0.0/8 blocked',
		});
	});

	test('status check (Task → Get): refused by n8n, not retried', async () => {
		const sim = simulator();
		const result = await run(sim, { nodes: [onCurrent(taskGet('task_blocked'))] });

		expectRefusal(result, '127.0.0.1', [IP_RANGE_ADVICE, 'Nothing was sent.', ALLOW_LOOPBACK]);
		expect(sim.stats.requests).toHaveLength(0);
		finishCase(sim, result, {
			case: 'status check to a blocked address',
			operation: 'task/get',
			injected: 'SSRF protection on, 127.0.0.0/8 blocked',
		});
	});

	test('status checks of a wait: the wait ends at the first refusal and names the task', async () => {
		const sim = simulator();
		const result = await run(sim, { nodes: [onCurrent(taskWait('task_blocked'))] });

		expectRefusal(result, '127.0.0.1', [IP_RANGE_ADVICE, ALLOW_LOOPBACK, 'task_blocked']);
		expect(result.error?.context?.taskId).toBe('task_blocked');
		expect(sim.stats.requests).toHaveLength(0);
		finishCase(sim, result, {
			case: 'wait on a blocked address',
			operation: 'task/wait',
			injected: 'SSRF protection on, 127.0.0.0/8 blocked',
		});
	});

	test('the credential Test says the same', async () => {
		const sim = simulator();
		const verdict = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

		expect(verdict).toEqual({
			status: 'Error',
			message: `n8n's SSRF protection blocked 127.0.0.1. ${IP_RANGE_ADVICE} Nothing was sent. ${ALLOW_LOOPBACK}`,
		});
		expect(sim.stats.requests).toHaveLength(0);
	});

	test('the credential Test of a service allowed by name passes', async () => {
		const sim = simulator();
		const verdict = await testCredential(allowedByName(sim));

		expect(verdict.status).toBe('OK');
	});
});

describe('images on a host n8n blocks, the service allowed', () => {
	test('a generated image on a blocked CDN: the task is named, its image not fetched, not retried', async () => {
		const sim = simulator();
		sim.configure({ downloads: 'cdn' });
		const result = await run(allowedByName(sim), {
			nodes: [
				onCurrent({
					resource: 'image',
					operation: 'generateAndWait',
					prompt: 'studio shot',
					options: { waiting: { value: { initialDelay: 0, pollInterval: 0.1 } } },
				}),
			],
		});

		const taskId = [...sim.tasks.keys()][0];
		expectRefusal(result, '127.0.0.1', [
			IP_RANGE_ADVICE,
			"Nothing was sent. It is not the service's host",
			ALLOW_LOOPBACK,
			`Task ${taskId} succeeded`,
		]);
		expect(sim.stats.submitsAccepted).toBe(1);
		expect(requestsOn(sim, 'cdn')).toHaveLength(0);
		finishCase(sim, result, {
			case: 'result image on a blocked CDN',
			operation: 'image/generateAndWait',
			injected: 'SSRF protection on, service allowed by name, CDN on 127.0.0.1 blocked',
		});
	});

	test('a store image on a blocked host name (Image → Download)', async () => {
		const sim = simulator();
		const result = await run(allowedByName(sim), {
			nodes: [onCurrent(download('https://images.store.example/bottle.png'))],
		});

		expectRefusal(result, 'images.store.example', [
			"n8n did not connect: images.store.example is on this n8n's list of blocked hostnames (N8N_SSRF_BLOCKED_HOSTNAMES).",
			"Nothing was sent. It is not the service's host",
			'An n8n administrator can allow it by adding images.store.example to N8N_SSRF_ALLOWED_HOSTNAMES and restarting n8n.',
		]);
		finishCase(sim, result, {
			case: 'store image on a blocked host name',
			operation: 'image/download',
			injected: 'SSRF protection on, images.store.example blocked by name',
		});
	});
});

describe('with the protection on, a real network fault still reads as one', () => {
	test('a submit cut after the service took it still warns that it may be billed', async () => {
		const sim = simulator();
		sim.addFault({ route: 'submit', reset: 'midBody', acceptSubmit: true });
		const result = await run(allowedByName(sim), { nodes: [onCurrent(generate())] });

		expect(result.error?.message).toBe('The connection to the service broke [item 0]');
		expectSubmitUnsureAdvice(result.error?.description);
		expect(requestsOn(sim, 'submit')).toHaveLength(1);
		finishCase(sim, result, {
			case: 'reset on submit, service allowed',
			operation: 'image/generate',
			injected: 'SSRF protection on, service allowed by name; submit cut mid-body, acceptSubmit',
		});
	});

	test('a status check cut before its reply is still retried', async () => {
		const sim = simulator();
		const seeded = await run(allowedByName(sim), { nodes: [onCurrent(generate())] });
		const taskId = String(seeded.items[0]?.json.task_id);
		clearStats(sim);
		sim.addFault({ route: 'task', reset: 'beforeResponse' });
		const result = await run(allowedByName(sim), { nodes: [onCurrent(taskGet(taskId))] });

		expect(result.error).toBeUndefined();
		expect(retriesLogged(result)).toBe(1);
		expect(requestsOn(sim, 'task')).toHaveLength(2);
		finishCase(sim, result, {
			case: 'reset on status check, service allowed',
			operation: 'task/get',
			injected: 'SSRF protection on, service allowed by name; task: cut before the status line',
		});
	});
});
