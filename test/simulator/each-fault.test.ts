import type { Simulator } from '.';
import { useSimulator } from '../harness/simulator';

// A fault that every item meets the same number of times, whatever order the items' requests
// reach the service in: the queue suite's 429 storm over many workers rests on it.

const simulator = useSimulator();

async function submit(sim: Simulator, prompt: string): Promise<number> {
	const res = await fetch(`${sim.baseUrl}/v1/open/product-images/generations`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ prompt }),
	});
	await res.arrayBuffer();
	return res.status;
}

test('a fault of `each` answers each request body its `times`, then lets that body through, and stays for the next body', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 429, retryAfter: '1', times: 2, each: true });

	const answers = [
		await submit(sim, 'A bottle'),
		await submit(sim, 'A lamp'),
		await submit(sim, 'A bottle'),
		await submit(sim, 'A bottle'),
		await submit(sim, 'A lamp'),
		await submit(sim, 'A lamp'),
		await submit(sim, 'A chair'),
	];

	expect(answers).toEqual([429, 429, 429, 200, 429, 200, 429]);
	expect(sim.tasks.size).toBe(2);
});
