import { runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';

const simulator = useSimulator();

// Tasks of 3.5 to 4.1 s (the simulator spreads them evenly by submit order), two waves of three:
// the first wave is seen finished at its look at 4.5 s, well clear of its longest task.
const TASK_MS = 3500;
const SPREAD_MS = 600;
const INITIAL_DELAY_S = 0.5;
const POLL_S = 2;
/** How late a look may land on a loaded 2-core machine; well under a Poll Interval. */
const LATE_MS = 1_000;

const generateAndWait = (options: Record<string, unknown>) => ({
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: '={{ $json.prompt }}',
		options: { initialDelay: INITIAL_DELAY_S, pollInterval: POLL_S, maxConcurrency: 3, downloadImages: false, ...options },
	},
});

const items = Array.from({ length: 6 }, (_, index) => ({ json: { prompt: `bottle ${index}` } }));

/**
 * Each task's queries, as milliseconds after its creation, in submit order, and whether the task
 * was submitted after three tasks had been seen finished (the run could predict it).
 */
function queryTimes(sim: ReturnType<typeof simulator>): Array<{ looks: number[]; informed: boolean }> {
	const tasks = [...sim.tasks.values()].sort((a, b) => a.createdAt - b.createdAt);
	const looksOf = (task: (typeof tasks)[number]) =>
		sim.stats.requests.filter((r) => r.route === 'task' && r.path.endsWith(task.task_id)).map((r) => r.at);
	const seenFinished = tasks
		.map((task) => looksOf(task).find((at) => at >= task.createdAt + task.durationMs) ?? Infinity)
		.sort((a, b) => a - b);
	return tasks.map((task) => ({
		looks: looksOf(task).map((at) => at - task.createdAt),
		informed: task.createdAt > seenFinished[2],
	}));
}

async function run(polling: Record<string, unknown>) {
	const sim = simulator();
	sim.configure({ taskDurationMs: TASK_MS, taskDurationSpreadMs: SPREAD_MS });
	const result = await runWorkflow({ credentials: credentialsFor(sim), input: items, nodes: [generateAndWait(polling)] });
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(6);
	expect(sim.stats.submitsAccepted).toBe(6);
	return queryTimes(sim);
}

test('Fixed Interval keeps the rhythm: the first look after Initial Delay, then one per Poll Interval', async () => {
	const times = await run({ polling: 'fixed' });
	// Judged look by look, so a busy machine's delays do not add up: a look is sent a Poll Interval
	// after the previous one was answered, never sooner, and well before a second interval is over.
	for (const { looks } of times) {
		expect(looks[0]).toBeGreaterThanOrEqual(INITIAL_DELAY_S * 1000 - 50);
		expect(looks[0]).toBeLessThan(INITIAL_DELAY_S * 1000 + LATE_MS);
		for (let look = 1; look < looks.length; look++) {
			expect(looks[look] - looks[look - 1]).toBeGreaterThanOrEqual(POLL_S * 1000 - 5);
			expect(looks[look] - looks[look - 1]).toBeLessThan(POLL_S * 1000 + LATE_MS);
		}
	}
});

test('Adaptive: after three tasks have finished, the next ones are looked at where they should finish, half a second apart', async () => {
	const times = await run({ polling: 'adaptive' });
	// The first wave knows nothing yet: it polls like Fixed Interval.
	for (const { looks } of times.slice(0, 3)) {
		expect(looks[0]).toBeGreaterThanOrEqual(INITIAL_DELAY_S * 1000 - 50);
		expect(looks[0]).toBeLessThan(INITIAL_DELAY_S * 1000 + LATE_MS);
	}
	// Tasks submitted once three were seen finished: no look before the shortest task seen, less a
	// second; looks inside the window half a second apart, closer than the poll interval.
	const informed = times.filter((task) => task.informed);
	expect(informed.length).toBeGreaterThan(0);
	for (const { looks } of informed) {
		expect(looks[0]).toBeGreaterThanOrEqual(TASK_MS - 1000 - 100);
		for (let look = 1; look < looks.length; look++) expect(looks[look] - looks[look - 1]).toBeLessThan(POLL_S * 1000 - 500);
		// Seen finished within a step of finishing.
		expect(looks[looks.length - 1]).toBeLessThan(TASK_MS + SPREAD_MS + 500 + 300);
	}
});

test('a workflow saved with a Poll Interval and no Polling choice keeps the fixed rhythm', async () => {
	const times = await run({});
	for (const { looks } of times.slice(3)) {
		expect(looks[0]).toBeGreaterThanOrEqual(INITIAL_DELAY_S * 1000 - 50);
		expect(looks[0]).toBeLessThan(INITIAL_DELAY_S * 1000 + LATE_MS);
	}
});
