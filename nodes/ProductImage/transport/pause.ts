import { sleep } from 'n8n-workflow';

// One cancelable sleep for retries, the rate-limit gate and the wait between polls; its own file
// because both the retry loop and the run's shared state need it.

/** A canceled wait leaves its last timer behind (n8n-workflow's sleep cannot be cleared): keep it short. */
const SLICE_MS = 250;

/** `false` when canceled; the abort event ends the wait at once, however long the sleep. */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<boolean> {
	if (signal?.aborted) return false;
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<false>((resolve) => {
		onAbort = () => resolve(false);
		signal?.addEventListener('abort', onAbort, { once: true });
	});
	try {
		for (const end = Date.now() + ms; ;) {
			const left = end - Date.now();
			if (left <= 0) return true;
			const slice = sleep(Math.min(left, SLICE_MS)).then(() => true);
			if (!(await Promise.race([slice, aborted]))) return false;
		}
	} finally {
		if (onAbort) signal?.removeEventListener('abort', onAbort);
	}
}

/** Requests that resume together hit the limit together: each adds up to this share of the pause. */
const JITTER_SHARE = 0.2;
const JITTER_CAP_MS = 1_000;

/** A 429 pauses every request about to go to the service, so N parallel items back off once. */
export class RateLimitGate {
	private resumeAt = 0;
	private pauseMs = 0;

	/** A longer pause wins. */
	close(ms: number, now = Date.now()): void {
		if (now + ms > this.resumeAt) {
			this.resumeAt = now + ms;
			this.pauseMs = ms;
		}
	}

	delayFor(now = Date.now(), random: () => number = Math.random): number {
		const left = this.resumeAt - now;
		if (left <= 0) return 0;
		return Math.round(left + random() * Math.min(JITTER_CAP_MS, this.pauseMs * JITTER_SHARE));
	}

	/** `false` if canceled first. */
	async waitUntilOpen(signal?: AbortSignal): Promise<boolean> {
		for (let delay = this.delayFor(); delay > 0; delay = this.delayFor()) {
			if (!(await sleepUnlessCancelled(delay, signal))) return false;
		}
		return !signal?.aborted;
	}
}
