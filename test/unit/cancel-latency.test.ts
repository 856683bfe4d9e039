// One cancellable sleep serves the waits between polls and the pauses before retries.
import { getEventListeners } from 'node:events';

import { sleepUnlessCancelled } from '../../nodes/ProductImage/transport/retry';

// The docs promise that a cancelled wait stops at once: the sleep listens to the cancel signal
// itself, not only between its quarter-second slices. On the fake clock the promise is checked
// exactly, whatever the machine's load.

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** Starts a long wait, cancels it at `cancelAtMs`, and reports whether it returned `ms` later. */
async function endedWithin(
	wait: (ms: number, signal: AbortSignal) => Promise<boolean>,
	cancelAtMs: number,
	ms: number,
): Promise<boolean | undefined> {
	const controller = new AbortController();
	let ended: boolean | undefined;
	void wait(60_000, controller.signal).then((finished) => (ended = finished));
	await jest.advanceTimersByTimeAsync(cancelAtMs);
	expect(ended).toBeUndefined();
	controller.abort();
	await jest.advanceTimersByTimeAsync(ms);
	return ended;
}

test.each([1, 10_001, 10_249, 37_123])(
	'a wait between polls cancelled %i ms in returns false at once',
	async (cancelAtMs) => {
		expect(await endedWithin(sleepUnlessCancelled, cancelAtMs, 0)).toBe(false);
	},
);

test('a wait between polls that is not cancelled sleeps its whole time', async () => {
	let ended: boolean | undefined;
	void sleepUnlessCancelled(1_000, new AbortController().signal).then(
		(finished) => (ended = finished),
	);
	await jest.advanceTimersByTimeAsync(999);
	expect(ended).toBeUndefined();
	await jest.advanceTimersByTimeAsync(1);
	expect(ended).toBe(true);
});

test('a wait started after the cancel returns false at once', async () => {
	const controller = new AbortController();
	controller.abort();
	let ended: boolean | undefined;
	void sleepUnlessCancelled(60_000, controller.signal).then((finished) => (ended = finished));
	await jest.advanceTimersByTimeAsync(0);
	expect(ended).toBe(false);
});

test('sleeps that end leave no listener on the signal, which lives as long as the run', async () => {
	// A long wait sleeps hundreds of times on the run's one stop signal; a listener left behind by
	// each would pile up (Node warns of a leak past ten).
	const controller = new AbortController();
	for (let i = 0; i < 12; i++) {
		const slept = sleepUnlessCancelled(100, controller.signal);
		await jest.advanceTimersByTimeAsync(100);
		expect(await slept).toBe(true);
	}
	expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});
