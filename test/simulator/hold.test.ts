import { useSimulator } from '../harness/simulator';

// A task the driver holds open at the simulator until it releases it: the queue-mode suite leaves
// tasks unfinished for a collect sweep, then lets them finish for the next.

const simulator = useSimulator();

const releaseTasks = () => fetch(`${simulator().baseUrl}/__sim/tasks/release`, { method: 'POST' });

const submit = () =>
	fetch(`${simulator().baseUrl}/v1/open/product-images/generations`, {
		method: 'POST',
		headers: { authorization: `Bearer ${simulator().apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ prompt: 'A bottle' }),
	});

test('a task held open succeeds when the driver releases it', async () => {
	simulator().configure({ taskOutcome: 'never', taskDurationMs: 0 });
	expect((await submit()).status).toBe(200);
	const [task] = simulator().tasks.values();
	expect(task.status).toBe('processing');
	expect((await releaseTasks()).status).toBe(200);
	expect(task.status).toBe('succeeded');
});
