import { createdAt, DurationModel } from '../../nodes/ProductImage/helpers/durationModel';
import { nextLookIn } from '../../nodes/ProductImage/helpers/pollSchedule';

const finished = (createdAt: number, ms: number) => ({
	status: 'succeeded',
	created_at: new Date(createdAt).toISOString(),
	completed_at: new Date(createdAt + ms).toISOString(),
});

test('the model predicts nothing before three tasks have finished, then their range with a second either side', () => {
	const model = new DurationModel();
	model.noteFinished(finished(0, 18_000));
	model.noteFinished(finished(0, 24_000));
	expect(model.window()).toBeUndefined();
	model.noteFinished(finished(0, 21_000));
	expect(model.window()).toEqual({ earliestMs: 17_000, latestMs: 25_000 });
});

test("a task this run did not submit started at its created_at", () => {
	const created = Date.parse('2026-11-23T10:00:00Z');
	expect(createdAt({ status: 'queued', created_at: new Date(created).toISOString() })).toBe(created);
	expect(createdAt({ status: 'queued' })).toBeUndefined();
});

test('the schedule: the poll interval until the window is known, one jump to it, steps inside it, the interval after it', () => {
	const plan = { mode: 'adaptive' as const, pollMs: 5_000, startedAt: 0, window: { earliestMs: 17_000, latestMs: 25_000 } };
	expect(nextLookIn({ ...plan, window: undefined, now: 5_000 })).toBe(5_000);
	expect(nextLookIn({ ...plan, now: 5_000 })).toBe(12_000);
	expect(nextLookIn({ ...plan, now: 18_000 })).toBe(1_000);
	expect(nextLookIn({ ...plan, now: 26_000 })).toBe(5_000);
	expect(nextLookIn({ ...plan, mode: 'fixed', now: 18_000 })).toBe(5_000);
});

test('tasks too varied to predict (a window wider than three intervals) keep the poll interval', () => {
	const plan = { mode: 'adaptive' as const, pollMs: 5_000, startedAt: 0, window: { earliestMs: 5_000, latestMs: 41_000 } };
	expect(nextLookIn({ ...plan, now: 10_000 })).toBe(5_000);
});

test('a narrow window is looked at twice a second at most', () => {
	const plan = { mode: 'adaptive' as const, pollMs: 5_000, startedAt: 0, window: { earliestMs: 9_000, latestMs: 11_000 } };
	expect(nextLookIn({ ...plan, now: 9_500 })).toBe(500);
});
