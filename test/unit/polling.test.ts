import { createdAt, DurationModel } from '../../nodes/ProductImage/helpers/pollSchedule';
import type { PollPlan } from '../../nodes/ProductImage/helpers/pollSchedule';
import type { Task } from '../../nodes/ProductImage/helpers/schemas';
import { nextPollIn, rhythmAfterPoll } from '../../nodes/ProductImage/helpers/pollSchedule';

const finished = (ms: number, createdAt = 0) => ({
	status: 'succeeded',
	created_at: new Date(createdAt).toISOString(),
	completed_at: new Date(createdAt + ms).toISOString(),
});

/** A model that saw these durations finish, in the order the service created their tasks. */
function modelOf(durations: number[]): DurationModel {
	const model = new DurationModel();
	durations.forEach((ms, index) =>
		model.noteFinished(`done-${index}`, finished(ms, 1_000 * index)),
	);
	return model;
}

describe('the duration model', () => {
	test('nothing is predicted before three tasks have finished', () => {
		expect(modelOf([18_000, 24_000]).window()).toBeUndefined();
		expect(modelOf([18_000, 24_000, 21_000]).window()).toEqual({
			earliestMs: 18_000,
			latestMs: 24_000,
		});
	});

	test('the window runs from the shortest to the longest of the eight tasks the service created last: durations that step leave the old ones behind', () => {
		const model = modelOf([
			30_000, 29_000, 12_000, 11_000, 10_000, 13_000, 11_500, 12_500, 10_500, 11_800,
		]);
		expect(model.window()).toEqual({ earliestMs: 10_000, latestMs: 13_000 });
		const long = modelOf([...Array(8).fill(20_000), ...Array(8).fill(8_000)]);
		expect(long.window()).toEqual({ earliestMs: 8_000, latestMs: 8_000 });
	});

	test('a task still running and a failed one change no window', () => {
		const model = modelOf([10_000, 11_000, 12_000]);
		model.noteRunning('a');
		model.noteRunning('b');
		model.forget('b');
		expect(model.window()).toEqual({ earliestMs: 10_000, latestMs: 12_000 });
	});

	test('a task without both times says nothing about durations', () => {
		const model = modelOf([10_000, 11_000]);
		model.noteFinished('no-times', { status: 'succeeded' });
		expect(model.window()).toBeUndefined();
	});

	test("durations that fall in the order the service created its tasks: a later task's window opens earlier than any duration seen", () => {
		// Ten tasks created in turn, each about 0.4 s shorter than the one before; the eleventh runs.
		const durations = [
			20_000, 19_500, 19_300, 18_700, 18_500, 17_900, 17_700, 17_200, 16_800, 16_500,
		];
		const model = modelOf(durations);
		model.noteRunning('next');
		expect(model.window()).toEqual({ earliestMs: 16_500, latestMs: 19_300 });
		const window = model.window('next')!;
		expect(window.earliestMs).toBeLessThan(16_500);
		expect(window.latestMs).toBeLessThan(16_500);
		expect(window.latestMs - window.earliestMs).toBeLessThan(2_000);
	});

	test("durations that rise in the order the service created its tasks: a later task's window opens after the longest seen", () => {
		const durations = [8_000, 8_600, 8_900, 9_500, 9_700, 10_400, 10_600, 11_200, 11_500, 12_000];
		const model = modelOf(durations);
		model.noteRunning('next');
		const window = model.window('next')!;
		expect(window.earliestMs).toBeGreaterThan(12_000);
		expect(window.latestMs - window.earliestMs).toBeLessThan(2_000);
	});

	test('the further a task is past the tasks the trend was learned from, the wider its window', () => {
		const model = modelOf([
			20_000, 19_500, 19_300, 18_700, 18_500, 17_900, 17_700, 17_200, 16_800, 16_500,
		]);
		model.noteRunning('next');
		model.noteRunning('after-next');
		const width = (window: { earliestMs: number; latestMs: number } | undefined) =>
			window!.latestMs - window!.earliestMs;
		expect(width(model.window('after-next'))).toBeGreaterThan(width(model.window('next')));
	});

	test("steady durations in whatever order show no trend: every task's window is the run's", () => {
		// Twenty of 18–24 s in the order the service's tasks spread them.
		const share = (order: number) => (((order + 1) * 2654435761) % 4294967296) / 4294967296;
		const model = modelOf(
			Array.from({ length: 20 }, (_, order) => 18_000 + Math.round(6_000 * share(order))),
		);
		model.noteRunning('next');
		expect(model.window('next')).toEqual(model.window());
	});

	test('fewer than eight finished tasks show no trend, however they line up', () => {
		const model = modelOf([20_000, 19_000, 18_000, 17_000, 16_000, 15_000, 14_000]);
		model.noteRunning('next');
		expect(model.window('next')).toEqual(model.window());
		model.noteFinished('eighth', finished(13_000, 7_000));
		model.noteRunning('later');
		expect(model.window('later')!.latestMs).toBeLessThan(13_000);
	});

	test('tasks submitted together and met in another order are placed in the order the service created them', () => {
		// Ten created 100 ms apart, each 0.4 s shorter than the one before, their answers read in
		// another order: in the order the run met them the durations show no trend.
		const met = [3, 0, 7, 1, 9, 4, 2, 8, 5, 6];
		const model = new DurationModel();
		for (const index of met)
			model.noteFinished(`done-${index}`, finished(20_000 - 400 * index, 100 * index));
		model.noteRunning('next', {
			status: 'running',
			created_at: new Date(1_000).toISOString(),
		});
		const window = model.window('next')!;
		expect(window.latestMs).toBeLessThan(16_400);
		expect(window.earliestMs).toBeGreaterThan(15_000);
	});

	test('tasks created in the same millisecond keep the order the run met them in', () => {
		const model = new DurationModel();
		for (let index = 0; index < 10; index++)
			model.noteFinished(`done-${index}`, finished(20_000 - 400 * index, 0));
		model.noteRunning('next', { status: 'running', created_at: new Date(0).toISOString() });
		expect(model.window('next')!.latestMs).toBeLessThan(16_400);
	});

	test('a task whose answers carried no created_at until it finished is placed by the one it finished with', () => {
		const model = new DurationModel();
		for (let index = 0; index < 9; index++)
			model.noteFinished(`done-${index}`, finished(20_000 - 400 * index, 100 * index));
		model.noteRunning('ninth', { status: 'running' });
		model.noteFinished('ninth', finished(16_400, 900));
		model.noteRunning('next', {
			status: 'running',
			created_at: new Date(1_000).toISOString(),
		});
		expect(model.window('next')!.latestMs).toBeLessThan(16_400);
	});

	test('along a trend, each of the tasks running together has the window of its own place', () => {
		// Ten finished, falling 0.4 s a task; the next five run together.
		const model = modelOf([
			20_000, 19_600, 19_200, 18_800, 18_400, 18_000, 17_600, 17_200, 16_800, 16_400,
		]);
		for (let index = 0; index < 5; index++)
			model.noteRunning(`running-${index}`, {
				status: 'running',
				created_at: new Date(10_000 + index).toISOString(),
			});
		const window = model.window('running-0')!;
		expect(window.earliestMs).toBeLessThanOrEqual(16_000);
		expect(window.latestMs).toBeGreaterThanOrEqual(16_000);
		expect(model.window('running-4')!.latestMs).toBeLessThan(window.earliestMs);
	});

	test('a task this run did not submit started at its created_at', () => {
		const created = Date.parse('2026-11-23T10:00:00Z');
		expect(createdAt({ status: 'queued', created_at: new Date(created).toISOString() })).toBe(
			created,
		);
		expect(createdAt({ status: 'queued' })).toBeUndefined();
	});
});

describe('the poll schedule', () => {
	// Started at 0; a fixed poller polls at 5, 10, 15 s…; this run expects finishes from 18 to 24 s.
	const plan: PollPlan = {
		mode: 'adaptive',
		pollMs: 5_000,
		startedAt: 0,
		rhythmAt: 20_000,
		window: { earliestMs: 18_000, latestMs: 24_000 },
		now: 15_000,
	};

	test('Fixed Interval: the poll interval after every answer', () => {
		expect(nextPollIn({ ...plan, mode: 'fixed', now: 18_000 })).toBe(5_000);
	});

	test('Adaptive with nothing learned polls when the fixed poller does', () => {
		expect(nextPollIn({ ...plan, window: undefined, now: 15_010 })).toBe(4_990);
	});

	test("the window's first poll where it opens: a task as long as the one before it is seen at once", () => {
		expect(nextPollIn({ ...plan, now: 5_000 })).toBe(13_000);
		expect(
			nextPollIn({ ...plan, window: { earliestMs: 18_000, latestMs: 18_000 }, now: 5_000 }),
		).toBe(13_000);
	});

	test('inside the window, polls closer together as its end nears: a quarter of the window where it opens, shrinking with the square root of the time left, at most twice a second', () => {
		// The fixed poller's next poll past the window: the gaps are the window's alone.
		const wide = { ...plan, rhythmAt: 25_000, window: { earliestMs: 10_000, latestMs: 22_000 } };
		const gaps = [10_000, 13_000, 16_000, 19_000, 21_900].map((now) =>
			nextPollIn({ ...wide, now }),
		);
		expect(gaps[0]).toBeCloseTo(12_000 / 4, 6);
		expect(gaps[2]).toBeCloseTo((12_000 / 4) * Math.sqrt(6 / 12), 6);
		for (let i = 1; i < gaps.length; i++) expect(gaps[i]).toBeLessThan(gaps[i - 1]);
		expect(gaps[4]).toBe(500);
		expect(nextPollIn({ ...plan, rhythmAt: 25_000, now: 23_500 })).toBe(500);
		// Never sparser than the fixed poller, however wide the window.
		expect(
			nextPollIn({ ...plan, pollMs: 1_000, window: { earliestMs: 0, latestMs: 3_000 }, now: 100 }),
		).toBeLessThanOrEqual(1_000);
	});

	test('past the window, polls as far apart as the time since it ended, each gap twice the one before, for one poll interval; then the fixed rhythm', () => {
		const later = { ...plan, rhythmAt: 30_000 };
		expect(nextPollIn({ ...later, now: 24_100 })).toBe(500);
		expect(nextPollIn({ ...later, now: 25_000 })).toBe(1_000);
		expect(nextPollIn({ ...later, now: 27_000 })).toBe(3_000);
		expect(nextPollIn({ ...later, now: 29_100 })).toBe(900);
		expect(nextPollIn({ ...plan, rhythmAt: 35_000, now: 29_100 })).toBe(5_900);
		// The fixed poller's next poll comes right after this one: it is made all the same, or a task
		// finishing in between would be seen a whole interval later than the fixed poller sees it.
		expect(nextPollIn({ ...plan, rhythmAt: 25_000, now: 24_600 })).toBe(400);
	});

	test("before the window opens, the fixed poller's polls are made: a task shorter than any seen is seen as soon", () => {
		expect(nextPollIn({ ...plan, rhythmAt: 10_000, now: 5_000 })).toBe(5_000);
		expect(nextPollIn({ ...plan, rhythmAt: 15_000, now: 10_000 })).toBe(5_000);
	});

	test("a poll of the window due less than one of its gaps before the fixed poller's waits for it: the fixed poller's stands in", () => {
		// At 18.5 s the window's next poll is due 1.44 s on, at 19.94 s, where its gap is 1.23 s.
		const gap = (elapsedMs: number) => (6_000 / 4) * Math.sqrt((24_000 - elapsedMs) / 6_000);
		expect(nextPollIn({ ...plan, rhythmAt: 20_500, now: 18_500 })).toBe(2_000);
		expect(nextPollIn({ ...plan, rhythmAt: 21_500, now: 18_500 })).toBeCloseTo(gap(18_500), 6);
		expect(21_500 - (18_500 + gap(18_500))).toBeGreaterThan(gap(18_500 + gap(18_500)));
	});

	test("a poll of the window sent before the fixed poller's poll and answered after it: the fixed poller's poll at once", () => {
		expect(nextPollIn({ ...plan, rhythmAt: 20_000, now: 20_040 })).toBe(0);
		expect(nextPollIn({ ...plan, window: undefined, rhythmAt: 20_000, now: 20_040 })).toBe(0);
	});

	test("whatever the window, no poll comes after the fixed poller's next", () => {
		let seed = 7;
		const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
		const late: unknown[] = [];
		for (let round = 0; round < 5_000; round++) {
			const earliestMs = random() * 30_000;
			const window = { earliestMs, latestMs: earliestMs + random() * 16_000 };
			const pollMs = 1_000 + random() * 9_000;
			const now = random() * 40_000;
			const rhythmAt = now + 1 + random() * pollMs;
			const next = nextPollIn({ mode: 'adaptive', pollMs, window, startedAt: 0, rhythmAt, now });
			if (!(next > 0 && next <= rhythmAt - now)) late.push({ window, pollMs, now, rhythmAt, next });
		}
		expect(late).toEqual([]);
	});

	test('a window wider than three poll intervals saves nothing: the fixed rhythm', () => {
		expect(
			nextPollIn({ ...plan, window: { earliestMs: 5_000, latestMs: 41_000 }, now: 15_010 }),
		).toBe(4_990);
	});

	test('a task whose start is unknown keeps the fixed rhythm', () => {
		expect(nextPollIn({ ...plan, startedAt: undefined, now: 19_000 })).toBe(1_000);
	});
});

describe('the fixed rhythm an adaptive poll keeps', () => {
	test('a poll on the rhythm moves it on as a fixed poller would: the interval after the answer', () => {
		expect(rhythmAfterPoll(10_000, 5_000, 10_003, 10_020)).toBe(15_020);
	});

	test('a poll before the rhythm leaves it where it was', () => {
		expect(rhythmAfterPoll(10_000, 5_000, 9_000, 9_020)).toBe(10_000);
	});

	test("a poll up to half an interval late is the rhythm's, late as a busy machine makes a fixed poller", () => {
		expect(rhythmAfterPoll(10_000, 5_000, 12_400, 12_420)).toBe(17_420);
	});

	test('a poll that jumped further past the rhythm moves it on by the interval and the answer latency', () => {
		expect(rhythmAfterPoll(10_000, 5_000, 12_600, 12_620)).toBe(15_020);
		expect(rhythmAfterPoll(10_000, 5_000, 16_000, 16_020)).toBe(20_040);
	});
});

/**
 * A batch waited for as the node waits (waitForTask): each lane submits its next task once it has
 * seen its last one finished, polls it at Initial Delay, then when the schedule says, learning
 * from every answer. Every request takes `latencyMs`, the service reading it halfway. Times on
 * the virtual clock; for each task, when a poll was read by the service, from its creation.
 */
function waitForBatch(durations: number[], lanes: number, latencyMs: number): number[][] {
	const pollMs = 5_000;
	const model = new DurationModel();
	const looks: number[][] = [];
	const submit = () => {
		const index = looks.length;
		if (index >= durations.length) return;
		looks.push([]);
		setTimeout(() => {
			const created = Date.now();
			const task = { status: 'running', created_at: new Date(created).toISOString() };
			setTimeout(
				() => follow(`task-${index}`, task, durations[index], looks[index]),
				latencyMs / 2,
			);
		}, latencyMs / 2);
	};
	const follow = (taskId: string, task: Task, durationMs: number, seen: number[]) => {
		const startedAt = Date.now();
		const created = Date.parse(task.created_at!);
		let rhythmAt = startedAt + pollMs;
		const poll = () => {
			const polledAt = Date.now();
			setTimeout(() => {
				const done = Date.now() >= created + durationMs;
				seen.push(Date.now() - created);
				setTimeout(() => {
					if (done) {
						const completed_at = new Date(created + durationMs).toISOString();
						model.noteFinished(taskId, { ...task, status: 'succeeded', completed_at });
						return submit();
					}
					model.noteRunning(taskId, task);
					rhythmAt = rhythmAfterPoll(rhythmAt, pollMs, polledAt, Date.now());
					const window = model.window(taskId);
					const plan = { mode: 'adaptive' as const, pollMs, window, startedAt, rhythmAt };
					setTimeout(poll, nextPollIn({ ...plan, now: Date.now() }));
				}, latencyMs / 2);
			}, latencyMs / 2);
		};
		setTimeout(poll, pollMs);
	};
	jest.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
	try {
		for (let lane = 0; lane < lanes; lane++) submit();
		jest.runAllTimers();
	} finally {
		jest.useRealTimers();
	}
	return looks;
}

describe('a batch whose durations drift, on the virtual clock', () => {
	const latencyMs = 40;
	/** The fixed poller's polls of a task, from its creation: 5 s after the submit, 5 s after each answer. */
	const fixedPolls = (durationMs: number) => {
		const polls = [latencyMs + 5_000];
		while (polls.at(-1)! < durationMs) polls.push(polls.at(-1)! + 5_000 + latencyMs);
		return polls;
	};
	/** ±0.3 s around each task's place, spread evenly. */
	const jitter = (order: number) =>
		Math.round(((((order + 1) * 2654435761) % 4294967296) / 4294967296 - 0.5) * 600);
	const batch = (duration: (order: number) => number) =>
		Array.from({ length: 30 }, (_, order) => duration(order) + jitter(order));

	const total = (values: number[]) => values.reduce((sum, value) => sum + value, 0);

	test.each([
		['fall, 20 s to 8 s', batch((order) => 20_000 - 410 * order), 0.25],
		['rise, 8 s to 20 s', batch((order) => 8_000 + 410 * order), 0.25],
		['step down from 18 s to 10 s', batch((order) => (order < 15 ? 18_000 : 10_000)), 0.5],
		['step up from 10 s to 18 s', batch((order) => (order < 15 ? 10_000 : 18_000)), 0.5],
	])(
		'durations that %s: every task is polled wherever the fixed poller polls it, up to the poll that sees it finished, and the drift is followed',
		(_, durations, shareOfFixed) => {
			const looks = waitForBatch(durations, 10, latencyMs);
			const late: unknown[] = [];
			durations.forEach((durationMs, index) => {
				const seenAt = looks[index].at(-1)!;
				// Between each two of the fixed poller's polls before it saw the task, one of these.
				const fixed = fixedPolls(durationMs);
				expect(seenAt).toBeGreaterThanOrEqual(durationMs);
				fixed.forEach((at, poll) => {
					const after = poll === 0 ? 0 : fixed[poll - 1];
					if (after < seenAt && !looks[index].some((look) => look > after && look <= at))
						late.push({ task: index, durationMs, fixedPollAt: at, looks: looks[index] });
				});
			});
			expect(late).toEqual([]);
			// The tasks after the first ten, each submitted once a lane's last was seen finished: seen
			// finished, in all, in a share of the time after their finish that the fixed poller takes.
			const after = (seen: (durationMs: number, index: number) => number) =>
				total(
					durations.slice(10).map((durationMs, index) => seen(durationMs, index + 10) - durationMs),
				);
			const fixedDelay = after((durationMs) => fixedPolls(durationMs).at(-1)!);
			expect(after((_, index) => looks[index].at(-1)!)).toBeLessThan(shareOfFixed * fixedDelay);
		},
	);
});
