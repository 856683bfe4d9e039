import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { countHeldReplies } from './virtualClock';

export const TEST_API_KEY = 'sk-live-test-9f8e7d6c5b4a3210';

/** One simulator per test file, reset between tests, fast tasks by default. */
export function useSimulator(config: Parameters<typeof startSimulator>[0] = {}): () => Simulator {
	let sim: Simulator | undefined;
	const start = { apiKey: TEST_API_KEY, taskDurationMs: 150, ...config };
	beforeAll(async () => {
		sim = await startSimulator(start);
		// Its delayed replies wait on the virtual clock when a test runs on one.
		countHeldReplies(() => sim?.heldReplies ?? 0);
	});
	afterEach(() => sim?.reset());
	afterAll(async () => {
		await sim?.close();
	});
	return () => {
		if (!sim) throw new Error('simulator not started');
		return sim;
	};
}

export function credentialsFor(sim: Simulator) {
	return { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
}
