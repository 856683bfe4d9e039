import { sleepUnlessCancelled } from '../../nodes/ProductImage/transport/retry';

// A pause before a retry sleeps in steps so a cancel is seen at once (cancel-latency.test.ts);
// the steps must not stretch a short pause. On the fake clock the length is checked exactly.

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test.each([1, 300, 999, 1_500])('a pause of %i ms lasts exactly its time', async (ms) => {
	let ended: boolean | undefined;
	void sleepUnlessCancelled(ms, new AbortController().signal).then(
		(finished) => (ended = finished),
	);
	await jest.advanceTimersByTimeAsync(ms - 1);
	expect(ended).toBeUndefined();
	await jest.advanceTimersByTimeAsync(1);
	expect(ended).toBe(true);
});
