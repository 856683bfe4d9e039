import { request } from 'node:http';

import type { Simulator } from '.';
import { useSimulator } from '../harness/simulator';
import { advanceVirtualClock, useVirtualClock } from '../harness/virtualClock';

// The service's limits and an outage, as the catalog bench drives them: the simulator's own
// promises, checked on the virtual clock so a minute's window takes no real time.

const simulator = useSimulator();
useVirtualClock();

interface Answer {
	status: number;
	retryAfter?: string;
	contentType?: string;
	text: string;
}

function call(sim: Simulator, method: string, path: string, body?: object): Promise<Answer> {
	const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
	return new Promise((resolve, reject) => {
		const req = request(
			`${sim.baseUrl}${path}`,
			{
				method,
				headers: {
					authorization: `Bearer ${sim.apiKey}`,
					...(payload
						? { 'content-type': 'application/json', 'content-length': payload.length }
						: {}),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () =>
					resolve({
						status: res.statusCode ?? 0,
						retryAfter: res.headers['retry-after'],
						contentType: res.headers['content-type'],
						text: Buffer.concat(chunks).toString('utf8'),
					}),
				);
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

const submit = (sim: Simulator) =>
	call(sim, 'POST', '/v1/open/product-images/generations', { prompt: 'A bottle' });

const taskIdOf = (answer: Answer): string => JSON.parse(answer.text).data.task_id;

test('beyond the submits per minute, a submit is refused with 429 and a Retry-After until the oldest leaves the minute', async () => {
	const sim = simulator();
	sim.configure({ submitsPerMinute: 2 });

	expect((await submit(sim)).status).toBe(200);
	await advanceVirtualClock(10_000);
	expect((await submit(sim)).status).toBe(200);
	await advanceVirtualClock(5_000);
	const refused = await submit(sim);

	expect(refused.status).toBe(429);
	expect(refused.retryAfter).toBe('45');
	expect(JSON.parse(refused.text).message).toMatch(/2 generation requests per minute/);
	expect(sim.tasks.size).toBe(2);
	expect(sim.stats.submitsAccepted).toBe(2);

	// The first submit leaves the minute: one more is taken, the next waits for the second.
	await advanceVirtualClock(45_000);
	expect((await submit(sim)).status).toBe(200);
	const next = await submit(sim);
	expect(next.status).toBe(429);
	expect(next.retryAfter).toBe('10');
	expect(sim.tasks.size).toBe(3);
});

test('beyond the tasks in flight, a submit is refused until the first unfinished task finishes', async () => {
	const sim = simulator();
	sim.configure({ tasksInFlight: 2, taskDurationMs: 30_000 });

	const first = await submit(sim);
	await advanceVirtualClock(4_000);
	expect((await submit(sim)).status).toBe(200);
	const refused = await submit(sim);

	expect(refused.status).toBe(429);
	expect(refused.retryAfter).toBe('26');
	expect(JSON.parse(refused.text).message).toMatch(/at most 2 at once/);
	expect(sim.tasks.size).toBe(2);

	await advanceVirtualClock(26_000);
	const task = await call(sim, 'GET', `/v1/open/tasks/${taskIdOf(first)}`);
	expect(JSON.parse(task.text).data.status).toBe('succeeded');
	expect((await submit(sim)).status).toBe(200);
	expect(sim.tasks.size).toBe(3);
});

test('no limit by default: submits in one instant are all taken', async () => {
	const sim = simulator();
	const answers = await Promise.all(Array.from({ length: 20 }, () => submit(sim)));
	expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
	expect(sim.tasks.size).toBe(20);
});

test('an outage of every request answers 503 with a proxy page, sent for by the admin route, and the service behind it runs on', async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 1_000 });
	const accepted = await submit(sim);
	const taskId = taskIdOf(accepted);
	sim.addFault({ route: 'task', status: 500 });

	await call(sim, 'POST', '/__sim/configure', { outage: 'all' });
	await advanceVirtualClock(2_000);
	const answers = [
		await submit(sim),
		await call(sim, 'GET', `/v1/open/tasks/${taskId}`),
		await call(
			sim,
			'GET',
			`/v1/open/assets/${encodeURIComponent(`generated/open-result/${taskId}-0.png`)}`,
		),
	];
	for (const answer of answers) {
		expect(answer.status).toBe(503);
		expect(answer.contentType).toBe('text/html');
		expect(answer.text).toContain('<h1>503 Service Temporarily Unavailable</h1>');
	}
	expect(sim.tasks.size).toBe(1);
	expect(sim.stats.requests.filter((r) => r.status === 503)).toHaveLength(3);

	await call(sim, 'POST', '/__sim/configure', { outage: 'none' });
	// The task finished during the outage; the fault queued before it is still there.
	expect((await call(sim, 'GET', `/v1/open/tasks/${taskId}`)).status).toBe(500);
	const task = await call(sim, 'GET', `/v1/open/tasks/${taskId}`);
	expect(JSON.parse(task.text).data.status).toBe('succeeded');
});

test('an outage of task queries leaves submits and downloads alone', async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 0 });
	const taskId = taskIdOf(await submit(sim));
	sim.configure({ outage: 'task' });

	expect((await call(sim, 'GET', `/v1/open/tasks/${taskId}`)).status).toBe(503);
	expect((await submit(sim)).status).toBe(200);
	const asset = await call(
		sim,
		'GET',
		`/v1/open/assets/${encodeURIComponent(`generated/open-result/${taskId}-0.png`)}`,
	);
	expect(asset.status).toBe(200);
});

test('the limits and the outage refuse values they cannot mean', () => {
	const sim = simulator();
	expect(() => sim.configure({ submitsPerMinute: 1.5 })).toThrow(/submitsPerMinute/);
	expect(() => sim.configure({ tasksInFlight: -1 })).toThrow(/tasksInFlight/);
	expect(() => sim.configure({ outage: 'some' as never })).toThrow(/'none', 'all' or 'task'/);
});
