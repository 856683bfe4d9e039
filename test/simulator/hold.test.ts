import { useSimulator } from '../harness/simulator';

// What a driver holds at the simulator, and releases when it says so: a request (the queue-mode
// suite kills a worker while its submit is held) and a task (left unfinished for a sweep).

const simulator = useSimulator();

/** An admin route's answer: `held` in the stats, `released` from a release. */
const admin = async (
	method: 'GET' | 'POST',
	route: string,
): Promise<{ ok?: boolean; held?: number; released?: number }> =>
	(await fetch(`${simulator().baseUrl}/__sim/${route}`, { method })).json() as Promise<{
		ok?: boolean;
		held?: number;
		released?: number;
	}>;

const submit = (signal?: AbortSignal) =>
	fetch(`${simulator().baseUrl}/v1/open/product-images/generations`, {
		method: 'POST',
		headers: { authorization: `Bearer ${simulator().apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ prompt: 'A bottle' }),
		signal,
	});

async function heldBecomes(count: number) {
	while ((await admin('GET', 'stats')).held !== count)
		await new Promise((resolve) => setTimeout(resolve, 10));
}

test('a held submit waits, not taken by the service, until the driver releases it', async () => {
	simulator().addFault({ route: 'submit', hold: true, after: 1 });
	expect((await submit()).status).toBe(200);
	const second = submit();
	await heldBecomes(1);
	expect(simulator().tasks.size).toBe(1);
	expect(await admin('POST', 'release')).toEqual({ ok: true, released: 1 });
	expect((await second).status).toBe(200);
	expect(simulator().tasks.size).toBe(2);
});

test('a held submit whose client goes away creates no task', async () => {
	simulator().addFault({ route: 'submit', hold: true });
	const client = new AbortController();
	const sent = submit(client.signal).catch(() => 'gone');
	await heldBecomes(1);
	client.abort();
	expect(await sent).toBe('gone');
	await heldBecomes(0);
	expect(await admin('POST', 'release')).toEqual({ ok: true, released: 0 });
	expect(simulator().tasks.size).toBe(0);
});

test('a task held open succeeds when the driver releases it', async () => {
	simulator().configure({ taskOutcome: 'never', taskDurationMs: 0 });
	expect((await submit()).status).toBe(200);
	const [task] = simulator().tasks.values();
	expect(task.status).toBe('processing');
	await admin('POST', 'tasks/release');
	expect(task.status).toBe('succeeded');
});
