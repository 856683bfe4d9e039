import { createdAt, DurationModel } from '../../nodes/ProductImage/helpers/pollSchedule';
import type { PollPlan } from '../../nodes/ProductImage/helpers/pollSchedule';
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
	test('nothing is predicted before three tasks have finished: a first wave of several tasks (null), a lone task (undefined)', () => {
		expect(modelOf([18_000, 24_000]).window()).toBeNull();
		const lone = new DurationModel();
		lone.noteRunning('only');
		expect(lone.window('only', 60_000)).toBeUndefined();
		expect(modelOf([18_000, 24_000, 21_000]).window()).toMatchObject({
			earliestMs: 21_000,
			latestMs: 24_000,
		});
	});

	test('the window runs from the middle to the longest of the five tasks the service created last: durations that step leave the old ones behind', () => {
		const model = modelOf([30_000, 29_000, 12_000, 11_000, 10_000, 13_000, 11_500]);
		expect(model.window()).toMatchObject({ earliestMs: 11_500, latestMs: 13_000 });
		const long = modelOf([...Array(5).fill(20_000), ...Array(5).fill(8_000)]);
		expect(long.window()).toMatchObject({ earliestMs: 8_000, latestMs: 8_000 });
	});

	test('a task past the recent window by its width is given the window of at least three earlier durations longer than its time so far: a step down leaves longer tasks running', () => {
		const long = [16_000, 17_000, 18_000, 19_000, 20_000, 16_500, 17_500, 18_500, 19_500, 20_000];
		const stepDown = modelOf([...long, 10_000, 9_000, 11_000, 8_500, 10_500]);
		// In the recent window (10–11 s) and just past it, where its widening polls see a task a
		// little longer soon, the recent window stands.
		expect(stepDown.window('next', 9_500)).toMatchObject({ earliestMs: 10_000, latestMs: 11_000 });
		expect(stepDown.window('next', 11_500)).toMatchObject({ earliestMs: 10_000, latestMs: 11_000 });
		expect(stepDown.window('next', 12_000)).toMatchObject({ earliestMs: 18_000, latestMs: 20_000 });
		// Fewer than three earlier durations longer than its time so far: the recent window again.
		expect(stepDown.window('next', 19_600)).toMatchObject({ earliestMs: 10_000, latestMs: 11_000 });
	});

	test('a task still running and a failed one change no window', () => {
		const model = modelOf([10_000, 11_000, 12_000]);
		model.noteRunning('a');
		model.noteRunning('b');
		model.forget('b');
		expect(model.window()).toMatchObject({ earliestMs: 11_000, latestMs: 12_000 });
	});

	test('a task without both times says nothing about durations', () => {
		const model = modelOf([10_000, 11_000]);
		model.noteFinished('no-times', { status: 'succeeded' });
		expect(model.window()).toBeNull();
	});

	test("durations that fall in the order the service created its tasks: a later task's window lies below every duration seen", () => {
		// Five tasks created in turn, each about 0.4 s shorter than the one before; the sixth runs.
		const model = modelOf([20_000, 19_500, 19_300, 18_700, 18_500]);
		model.noteRunning('next');
		expect(model.window()).toMatchObject({ earliestMs: 19_300, latestMs: 20_000 });
		const window = model.window('next')!;
		expect(window.latestMs).toBeLessThan(18_500);
		expect(window.latestMs - window.earliestMs).toBeLessThan(1_000);
	});

	test("durations that rise in the order the service created its tasks: a later task's window lies above the longest seen", () => {
		const model = modelOf([10_000, 10_500, 11_000, 11_400, 12_000]);
		model.noteRunning('next');
		const window = model.window('next')!;
		expect(window.earliestMs).toBeGreaterThan(12_000);
		expect(window.latestMs - window.earliestMs).toBeLessThan(1_000);
	});

	test("steady durations in whatever order show no trend: every task's window is the run's", () => {
		// Twenty of 18–24 s in the order the service's tasks spread them.
		const share = (order: number) => (((order + 1) * 2654435761) % 4294967296) / 4294967296;
		const model = modelOf(
			Array.from({ length: 20 }, (_, order) => 18_000 + Math.round(6_000 * share(order))),
		);
		model.noteRunning('next');
		expect(model.window('next')).toEqual({ ...model.window(), alone: true });
	});

	test('fewer than five finished tasks show no trend, however they line up', () => {
		const model = modelOf([20_000, 19_000, 18_000, 17_000]);
		model.noteRunning('next');
		expect(model.window('next')).toEqual({ ...model.window(), alone: true });
		model.noteFinished('fifth', finished(16_000, 4_000));
		model.noteRunning('later');
		expect(model.window('later')!.latestMs).toBeLessThan(16_000);
	});

	test('tasks submitted together and met in another order are placed in the order the service created them', () => {
		// Five created 100 ms apart, each 0.4 s shorter than the one before, their answers read in
		// another order: in the order the run met them the durations show no trend.
		const model = new DurationModel();
		for (const index of [3, 0, 4, 1, 2])
			model.noteFinished(`done-${index}`, finished(20_000 - 400 * index, 100 * index));
		model.noteRunning('next', { status: 'running', created_at: new Date(500).toISOString() });
		const window = model.window('next')!;
		expect(window.latestMs).toBeLessThan(18_400);
		expect(window.earliestMs).toBeGreaterThan(17_500);
	});

	test('tasks created in the same millisecond keep the order the run met them in', () => {
		const model = new DurationModel();
		for (let index = 0; index < 5; index++)
			model.noteFinished(`done-${index}`, finished(20_000 - 400 * index, 0));
		model.noteRunning('next', { status: 'running', created_at: new Date(0).toISOString() });
		expect(model.window('next')!.latestMs).toBeLessThan(18_400);
	});

	test('the one task the run still waits for is alone; with others running, none is', () => {
		const model = modelOf([10_000, 11_000, 12_000]);
		model.noteRunning('a');
		model.noteRunning('b');
		expect(model.window('a')!.alone).toBe(false);
		model.noteFinished('b', finished(12_500, 10_000));
		expect(model.window('a')!.alone).toBe(true);
		expect(model.window()!.alone).toBe(false);
	});

	test('polls between the fixed poller’s are allowed while the run has made at most half as many as the fixed poller’s; a poll that finds its task finished counts as the fixed poller’s', () => {
		const model = new DurationModel();
		expect(model.mayAdd).toBe(false);
		model.notePoll(false);
		expect(model.mayAdd).toBe(false);
		model.notePoll(false);
		expect(model.mayAdd).toBe(true);
		model.notePoll(true);
		expect(model.mayAdd).toBe(false);
		model.notePoll(false);
		model.notePoll(false);
		expect(model.mayAdd).toBe(true);
	});

	test('what the run learns is announced: each finished or failed task aborts the signal the waits sleep on', () => {
		const model = modelOf([10_000]);
		const before = model.learned;
		model.noteRunning('a');
		expect(before.aborted).toBe(false);
		model.noteFinished('a', finished(11_000, 1_000));
		expect(before.aborted).toBe(true);
		const next = model.learned;
		expect(next.aborted).toBe(false);
		model.forget('b');
		expect(next.aborted).toBe(true);
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
	const window = { earliestMs: 18_000, latestMs: 24_000, alone: false };
	const plan: PollPlan = {
		mode: 'adaptive',
		pollMs: 5_000,
		startedAt: 0,
		rhythmAt: 20_000,
		window,
		now: 15_000,
	};

	test('Fixed Interval: the poll interval after every answer', () => {
		expect(nextPollIn({ ...plan, mode: 'fixed', now: 18_000 })).toBe(5_000);
	});

	test('Adaptive with nothing learned polls when the fixed poller does', () => {
		expect(nextPollIn({ ...plan, window: undefined, now: 15_010 })).toBe(4_990);
	});

	test('in a first wave, a task that has run three intervals is also polled halfway to the next', () => {
		const firstWave = { ...plan, window: null };
		expect(nextPollIn({ ...firstWave, rhythmAt: 15_000, now: 10_000 })).toBe(5_000);
		expect(nextPollIn({ ...firstWave, now: 15_000 })).toBe(2_500);
		expect(nextPollIn({ ...firstWave, now: 17_500 })).toBe(2_500);
	});

	test("the window's first poll where it opens: a task as long as the shortest before it is seen at once", () => {
		expect(nextPollIn({ ...plan, now: 5_000 })).toBe(13_000);
		expect(nextPollIn({ ...plan, window: { ...window, latestMs: 18_000 }, now: 5_000 })).toBe(
			13_000,
		);
	});

	test('a window narrower than 0.375 s, as a trend often makes it, is polled once, where it ends: a poll where it opens would spend the query budget the polls past it need', () => {
		const trend = { ...plan, window: { ...window, latestMs: 18_300 } };
		expect(nextPollIn({ ...trend, now: 5_000 })).toBe(13_300);
		expect(nextPollIn({ ...trend, now: 17_800 })).toBe(500);
	});

	test('a window opening less than 0.75 s after a poll is polled 0.75 s after it, or where it ends if sooner', () => {
		const later = { ...plan, rhythmAt: 30_000, window: { ...window, latestMs: 19_000 } };
		expect(nextPollIn({ ...later, now: 17_800 })).toBe(750);
		expect(nextPollIn({ ...later, window: { ...window, latestMs: 18_500 }, now: 17_900 })).toBe(
			600,
		);
	});

	test('inside the window, polls half its width apart, at most every 0.75 s, the last where it ends', () => {
		const later = { ...plan, rhythmAt: 30_000 };
		expect(nextPollIn({ ...later, now: 18_000 })).toBe(3_000);
		expect(nextPollIn({ ...later, now: 22_000 })).toBe(2_000);
		const narrow = { ...later, window: { ...window, latestMs: 19_000 } };
		expect(nextPollIn({ ...narrow, now: 18_000 })).toBe(750);
		expect(nextPollIn({ ...narrow, now: 18_500 })).toBe(500);
	});

	test("past the window, polls as far apart as the time since it ended, at least 0.75 s; the fixed poller's come first", () => {
		const later = { ...plan, rhythmAt: 40_000 };
		expect(nextPollIn({ ...later, now: 24_100 })).toBe(750);
		expect(nextPollIn({ ...later, now: 26_000 })).toBe(2_000);
		expect(nextPollIn({ ...later, now: 28_000 })).toBe(4_000);
		expect(nextPollIn({ ...plan, rhythmAt: 30_000, now: 28_000 })).toBe(2_000);
	});

	test('the one task the run still waits for, past the window: polls 3 % of its time so far apart', () => {
		const alone = { ...plan, rhythmAt: 70_000, window: { ...window, alone: true } };
		expect(nextPollIn({ ...alone, now: 24_100 })).toBe(750);
		expect(nextPollIn({ ...alone, now: 60_000 })).toBe(1_800);
		// Inside the window it is polled as any other.
		expect(nextPollIn({ ...alone, now: 18_000 })).toBe(3_000);
	});

	test("before the window opens, the fixed poller's polls are made: a task shorter than any seen is seen as soon", () => {
		expect(nextPollIn({ ...plan, rhythmAt: 10_000, now: 5_000 })).toBe(5_000);
		expect(nextPollIn({ ...plan, rhythmAt: 15_000, now: 10_000 })).toBe(5_000);
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
			const window = {
				earliestMs,
				latestMs: earliestMs + random() * 16_000,
				alone: random() < 0.5,
			};
			const pollMs = 1_000 + random() * 9_000;
			const now = random() * 40_000;
			const rhythmAt = now + 1 + random() * pollMs;
			const next = nextPollIn({ mode: 'adaptive', pollMs, window, startedAt: 0, rhythmAt, now });
			if (!(next > 0 && next <= rhythmAt - now)) late.push({ window, pollMs, now, rhythmAt, next });
		}
		expect(late).toEqual([]);
	});

	test('a task whose start is unknown keeps the fixed rhythm', () => {
		expect(nextPollIn({ ...plan, startedAt: undefined, now: 19_000 })).toBe(1_000);
	});
});

describe('the fixed rhythm an adaptive poll keeps', () => {
	test('a poll on the rhythm moves it on as a fixed poller would: the interval after the answer', () => {
		expect(rhythmAfterPoll(10_000, 5_000, 10_003, 10_020)).toBe(15_017);
	});

	test('a poll before the rhythm leaves it where it was', () => {
		expect(rhythmAfterPoll(10_000, 5_000, 9_000, 9_020)).toBe(10_000);
	});

	test("a poll up to half an interval late is the rhythm's: the next is counted from where the fixed poller's was due, never later than its", () => {
		expect(rhythmAfterPoll(10_000, 5_000, 12_400, 12_420)).toBe(15_020);
	});

	test('a poll that jumped further past the rhythm moves it on by the interval and the answer latency', () => {
		expect(rhythmAfterPoll(10_000, 5_000, 12_600, 12_620)).toBe(15_020);
		expect(rhythmAfterPoll(10_000, 5_000, 16_000, 16_020)).toBe(20_040);
	});
});
