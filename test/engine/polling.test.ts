import { runWorkflow } from '../harness/engine';
import { currentVersionOptions } from '../harness/fixtures';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { advanceVirtualClock, onVirtualClock, useVirtualClock } from '../harness/virtualClock';

const simulator = useSimulator();
// The schedule and the simulator's tasks on one clock the test moves: every time below is exact.
useVirtualClock();

// Tasks of 3.5 to 4.1 s (the simulator spreads them evenly by submit order), two waves of three:
// the first wave is seen finished at its look at 4.5 s, well clear of its longest task.
const TASK_MS = 3500;
const SPREAD_MS = 600;
const INITIAL_DELAY_S = 0.5;
const POLL_S = 2;

/** Options written flat, as version 1 stores them; the current version's are bundled from them. */
const generateAndWait = (options: Record<string, unknown>, typeVersion?: 1) => {
	const flat = {
		initialDelay: INITIAL_DELAY_S,
		pollInterval: POLL_S,
		maxConcurrency: 3,
		downloadImages: false,
		...options,
	};
	return {
		typeVersion,
		parameters: {
			resource: 'image',
			operation: 'generateAndWait',
			prompt: '={{ $json.prompt }}',
			options: typeVersion === 1 ? flat : currentVersionOptions(flat),
		},
	};
};

const items = Array.from({ length: 6 }, (_, index) => ({ json: { prompt: `bottle ${index}` } }));

/**
 * Each task's queries, as milliseconds after its creation, in submit order, how many tasks had
 * been seen finished when it was submitted, and whether three had (the run could predict it).
 * "When" is by the order the simulator saw the requests in: on the virtual clock a submit can
 * share the millisecond of the poll that informed it.
 */
function queryTimes(sim: ReturnType<typeof simulator>): Array<{
	looks: number[];
	informed: boolean;
	finishedBefore: number;
	durationMs: number;
}> {
	const tasks = [...sim.tasks.values()].sort((a, b) => a.createdAt - b.createdAt);
	const requests = sim.stats.requests.map((request, index) => ({ ...request, index }));
	// Every submit is accepted (run() checks), so the n-th submit created the n-th task.
	const submits = requests.filter((r) => r.route === 'submit');
	const looksOf = (task: (typeof tasks)[number]) =>
		requests.filter((r) => r.route === 'task' && r.path.endsWith(task.task_id));
	const seenFinished = tasks
		.map(
			(task) =>
				looksOf(task).find((r) => r.at >= task.createdAt + task.durationMs)?.index ?? Infinity,
		)
		.sort((a, b) => a - b);
	return tasks.map((task, order) => {
		const finishedBefore = seenFinished.filter((index) => index < submits[order].index).length;
		return {
			looks: looksOf(task).map((r) => r.at - task.createdAt),
			informed: finishedBefore >= 3,
			finishedBefore,
			durationMs: task.durationMs,
		};
	});
}

async function run(polling: Record<string, unknown>, durations?: number[], typeVersion?: 1) {
	const sim = simulator();
	// A fresh service per run: submit order (which picks each duration) and counts start at zero.
	sim.reset();
	sim.configure(
		durations
			? { taskDurationsMs: durations }
			: { taskDurationMs: TASK_MS, taskDurationSpreadMs: SPREAD_MS },
	);
	const input = durations
		? durations.map((_, index) => ({ json: { prompt: `bottle ${index}` } }))
		: items;
	const result = await onVirtualClock(
		runWorkflow({
			credentials: credentialsFor(sim),
			input,
			nodes: [generateAndWait(polling, typeVersion)],
		}),
	);
	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(input.length);
	expect(sim.stats.submitsAccepted).toBe(input.length);
	return queryTimes(sim);
}

const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

/** The fixed poller's polls of a task, milliseconds after its start: Initial Delay, then every Poll Interval. */
const rhythm = (look: number) => (INITIAL_DELAY_S + look * POLL_S) * 1000;

/** How many polls the fixed poller makes of a task of this duration: up to the first at or after its finish. */
const fixedPolls = (durationMs: number) =>
	1 + Math.max(0, Math.ceil((durationMs - rhythm(0)) / (POLL_S * 1000)));

/** The fixed poller's polls of a task of this duration, from its `from`-th poll on. */
const onRhythm = (durationMs: number, from = 0) =>
	Array.from({ length: fixedPolls(durationMs) - from }, (_, look) => rhythm(from + look));

/**
 * A task polled where the finished tasks said it would finish: the fixed poller's first poll, then
 * only polls inside the window they taught (`from`–`to` after its start), and seen at the last.
 */
function seenInWindow(looks: number[], durationMs: number, from: number, to: number): void {
	expect(looks[0]).toBe(rhythm(0));
	for (const look of looks.slice(1)) {
		expect(look).toBeGreaterThanOrEqual(from);
		expect(look).toBeLessThanOrEqual(to);
	}
	expect(looks.at(-2)).toBeLessThan(durationMs);
	expect(looks.at(-1)).toBeGreaterThanOrEqual(durationMs);
}

test('Fixed Interval keeps the rhythm: the first look after Initial Delay, then one per Poll Interval', async () => {
	const times = await run({ polling: 'fixed' });
	// 0.5, 2.5 and 4.5 s after each task's submit: the third is the first at or after its finish.
	for (const { looks, durationMs } of times) {
		expect(looks).toEqual(onRhythm(durationMs));
		expect(looks).toEqual([500, 2500, 4500]);
	}
});

test('Adaptive: after three tasks have finished, the next ones are looked at where they should finish, half a second apart', async () => {
	const times = await run({ polling: 'adaptive' });
	// The first wave knows nothing yet: it polls like Fixed Interval.
	for (const { looks, durationMs } of times.slice(0, 3))
		expect(looks).toEqual(onRhythm(durationMs));
	// Tasks submitted once three were seen finished: before the shortest task seen, less a second,
	// only the fixed poller's looks (a task shorter than any seen is seen as soon); then looks inside
	// the window half a second apart, none after the longest seen plus a step; seen finished at the
	// first look at or after the finish, before the fixed poller's look and in at most one more look
	// (the window's first, where it opens).
	const seen = times.slice(0, 3).map((task) => task.durationMs);
	const informed = times.filter((task) => task.informed);
	expect(informed.length).toBeGreaterThan(0);
	for (const { looks, durationMs } of informed) {
		const beforeWindow = looks.filter((look) => look < Math.min(...seen) - 1000);
		expect(beforeWindow).toEqual(onRhythm(durationMs).slice(0, beforeWindow.length));
		const inWindow = looks.slice(beforeWindow.length);
		expect(inWindow.length).toBeGreaterThan(0);
		for (let look = 1; look < inWindow.length; look++)
			expect(inWindow[look] - inWindow[look - 1]).toBeLessThanOrEqual(500);
		expect(looks.at(-2) ?? 0).toBeLessThan(durationMs);
		expect(looks.at(-1)).toBeGreaterThanOrEqual(durationMs);
		expect(looks.at(-1)).toBeLessThanOrEqual(Math.max(...seen) + 500);
		expect(looks.at(-1)).toBeLessThan(onRhythm(durationMs).at(-1)!);
		expect(looks.length).toBeLessThanOrEqual(fixedPolls(durationMs) + 1);
	}
});

test('version 1: a workflow saved with a Poll Interval and no Polling choice keeps the fixed rhythm', async () => {
	const times = await run({}, undefined, 1);
	// The informed ones too: 0.5, 2.5, 4.5 s, as before there was a Polling choice.
	for (const { looks, durationMs } of times) expect(looks).toEqual(onRhythm(durationMs));
});

test("Adaptive where spread durations start at once: every poll of the fixed poller's until it sees the task, a few more past the window the first ones taught, at most half as many again in all", async () => {
	// Started together, the short tasks finish first. Durations clear of the polls at 0.5, 2.5,
	// 4.5, 6.5 and 8.5 s.
	const durations = [1200, 2000, 3100, 3900, 5600, 7200];
	const adaptive = await run({ polling: 'adaptive', maxConcurrency: 6 }, durations);
	const fixed = await run({ polling: 'fixed', maxConcurrency: 6 }, durations);
	adaptive.forEach(({ looks }, order) => {
		const seenAt = looks.at(-1)!;
		expect(looks).toEqual(expect.arrayContaining(fixed[order].looks.filter((at) => at < seenAt)));
		expect(seenAt).toBeLessThanOrEqual(fixed[order].looks.at(-1)!);
	});
	const count = (times: typeof fixed) => total(times.map(({ looks }) => looks.length));
	expect(count(adaptive)).toBeLessThanOrEqual(1.5 * count(fixed));
});

test('Adaptive: past the predicted window the last task the run waits for is polled at least 0.75 s apart, and on the fixed rhythm from its own start throughout', async () => {
	// One lane: three tasks of 1.2–1.6 s teach the window, then one of that length and one of 6 s.
	const durations = [1200, 1400, 1600, 1300, 6000];
	const times = await run({ polling: 'adaptive', maxConcurrency: 1 }, durations);
	for (const { looks, durationMs } of times.slice(0, 3))
		expect(looks).toEqual(onRhythm(durationMs));
	for (const { informed } of times.slice(3)) expect(informed).toBe(true);
	// The one that fits the window: the fixed poller's first poll (0.5 s), then polls inside the
	// window the three taught (1.2–1.6 s), where it is seen, before the fixed poller's 2.5 s.
	seenInWindow(times[3].looks, 1300, 1200, 1600);
	// The long one, the only task the run still waits for: past the window's end (1.6 s) polls 3 %
	// of its time so far apart, at least 0.75 s, as the query budget allows; the fixed poller's
	// polls (2.5, 4.5 and 6.5 s) made all along, not a new rhythm counted from the window's polls.
	const { looks } = times[4];
	const added = looks.filter((look) => look > 1600 && !onRhythm(6000).includes(look));
	expect(added.length).toBeGreaterThan(0);
	for (const look of added)
		expect(look - looks[looks.indexOf(look) - 1]).toBeGreaterThanOrEqual(750);
	expect(times[4].looks).toEqual(expect.arrayContaining(onRhythm(6000)));
});

test.each([
	['a 9 s task still running past them', 9000, 1200],
	['nothing running past them', 1300, 1300],
])(
	'Adaptive: short tasks finished one after another make a window, %s: the fifth is polled where it opens',
	async (_, firstMs, windowEndMs) => {
		// Two lanes: the first task on one, short ones after each other on the other; the window
		// lies among those finished (1.0 s and on).
		const times = await run({ polling: 'adaptive', maxConcurrency: 2 }, [
			firstMs,
			1000,
			1100,
			1200,
			1100,
		]);
		expect(times[4].informed).toBe(true);
		// It ends at the longest finished among the five created last: seen before the fixed
		// poller's 2.5 s.
		seenInWindow(times[4].looks, 1100, 1000, windowEndMs);
	},
);

/** Each task's queries in creation order, as milliseconds after its creation. */
function looksAfterCreation(sim: ReturnType<typeof simulator>): number[][] {
	return [...sim.tasks.values()]
		.sort((a, b) => a.createdAt - b.createdAt)
		.map((task) =>
			sim.stats.requests
				.filter((r) => r.route === 'task' && r.path.endsWith(task.task_id))
				.map((r) => r.at - task.createdAt),
		);
}

test('Adaptive: a task polled inside the window keeps it, so the polls stay close until it finishes', async () => {
	// One lane: 1.0, 1.1 and 3.0 s teach a window within 1.0–3.0 s; the fourth (2.8 s) is seen
	// running inside it, which leaves the window as it was: the polls stay at most a second apart
	// (half its width at most), not back to the 2 s rhythm.
	const times = await run({ polling: 'adaptive', maxConcurrency: 1 }, [1000, 1100, 3000, 2800]);
	const fourth = times[3];
	expect(fourth.informed).toBe(true);
	// After the fixed poller's first poll, from where the window opens, with the fixed poller's at
	// 2.5 s among them, until the first look at or after 2.8 s.
	seenInWindow(
		fourth.looks.filter((look) => look !== 2500),
		2800,
		1000,
		3000,
	);
	expect(fourth.looks).toContain(2500);
	for (let look = 2; look < fourth.looks.length; look++)
		expect(fourth.looks[look] - fourth.looks[look - 1]).toBeLessThanOrEqual(1000);
});

test('Adaptive: a failed task says nothing about how long tasks take; the next ones are polled in the window', async () => {
	const sim = simulator();
	sim.reset();
	// One lane: the first task fails after 3 s (seen running at 0.5 and 2.5 s), then three of
	// 1.0–1.2 s finish; the fifth (1.0 s) is polled where those finished, not on the fixed rhythm.
	sim.configure({ taskDurationsMs: [3000, 1000, 1100, 1200, 1000], taskOutcome: 'fail' });
	const running = runWorkflow({
		credentials: credentialsFor(sim),
		input: items.slice(0, 5),
		nodes: [
			{ ...generateAndWait({ polling: 'adaptive', maxConcurrency: 1 }), continueOnFail: true },
		],
	});
	// The first task's submit is answered before any timer: settling the I/O is enough.
	while (sim.tasks.size === 0) await new Promise((resolve) => setImmediate(resolve));
	sim.configure({ taskOutcome: 'succeed' });
	const result = await onVirtualClock(running);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.error === undefined)).toEqual([
		false,
		true,
		true,
		true,
		true,
	]);
	const looks = looksAfterCreation(sim);
	expect(looks[0]).toEqual([500, 2500, 4500]);
	seenInWindow(looks[4], 1000, 1000, 1200);
});

test('Adaptive in Task → Wait for Completion: a task this run did not submit is timed from its creation', async () => {
	const sim = simulator();
	sim.reset();
	sim.configure({ taskDurationsMs: [2800, 2900, 3000, 3000] });
	const generate = (count: number) =>
		onVirtualClock(
			runWorkflow({
				credentials: credentialsFor(sim),
				input: items.slice(0, count),
				nodes: [
					{
						parameters: { resource: 'image', operation: 'generate', prompt: '={{ $json.prompt }}' },
					},
				],
			}),
		);
	const first = await generate(3);
	// The three have finished when the fourth is submitted and all four are waited for.
	await advanceVirtualClock(3100);
	const fourth = await generate(1);
	const result = await onVirtualClock(
		runWorkflow({
			credentials: credentialsFor(sim),
			input: [...first.items, ...fourth.items].map((item) => ({
				json: { taskId: item.json.task_id },
			})),
			nodes: [
				{
					parameters: {
						resource: 'task',
						operation: 'wait',
						taskId: '={{ $json.taskId }}',
						options: currentVersionOptions({
							polling: 'adaptive',
							pollInterval: POLL_S,
							maxConcurrency: 1,
							downloadImages: false,
						}),
					},
				},
			],
		}),
	);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.status)).toEqual(Array(4).fill('succeeded'));
	const looks = looksAfterCreation(sim);
	// Polled at once (the wait's first poll), at 2 s as the fixed poller polls, then inside the
	// window the three taught (2.8–3.0 s after its creation), where it is seen.
	expect(looks[3].slice(0, 2)).toEqual([0, 2000]);
	for (const look of looks[3].slice(2)) expect(look).toBeGreaterThanOrEqual(2800);
	expect(looks[3].at(-2)).toBeLessThan(3000);
	expect(looks[3].at(-1)).toBe(3000);
});

/** A share in [0, 1) per task, spread evenly (the simulator's own sequence): durations that jitter by ±0.3 s. */
const share = (order: number) => (((order + 1) * 2654435761) % 4294967296) / 4294967296;
const drifting = (duration: (order: number) => number) =>
	Array.from(
		{ length: 20 },
		(_, order) => duration(order) + Math.round((share(order) - 0.5) * 600),
	);

test.each([
	[
		'fall, each task 0.3 s shorter than the one before',
		drifting((order) => 9000 - 300 * order),
		0.5,
	],
	[
		'rise, each task 0.3 s longer than the one before',
		drifting((order) => 3300 + 300 * order),
		0.5,
	],
	['step down from 8 s to 3.5 s', drifting((order) => (order < 10 ? 8000 : 3500)), 0.75],
	['step up from 3.5 s to 8 s', drifting((order) => (order < 10 ? 3500 : 8000)), 0.75],
])(
	'Adaptive where durations %s: every poll of the fixed poller made, no task seen later than it sees it, and once eight have finished the drift followed',
	async (_, durations, shareOfFixed) => {
		// Twenty tasks over four lanes.
		const times = await run({ polling: 'adaptive', maxConcurrency: 4 }, durations);
		for (const { looks, durationMs } of times) {
			const seenAt = looks.at(-1)!;
			const fixed = onRhythm(durationMs);
			expect(looks).toEqual(expect.arrayContaining(fixed.filter((poll) => poll < seenAt)));
			expect(seenAt).toBeLessThanOrEqual(fixed.at(-1)!);
		}
		// The tasks submitted once eight had been seen finished: seen finished, in all, in a share of
		// the time after their finish that the fixed poller takes.
		const learned = times.filter((task) => task.finishedBefore >= 8);
		expect(learned.length).toBeGreaterThan(0);
		const delays = learned.map(({ looks, durationMs }) => looks.at(-1)! - durationMs);
		const fixedDelays = learned.map(({ durationMs }) => onRhythm(durationMs).at(-1)! - durationMs);
		expect(total(delays)).toBeLessThan(shareOfFixed * total(fixedDelays));
	},
);
