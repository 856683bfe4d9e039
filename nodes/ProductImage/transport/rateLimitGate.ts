import { pauseUnlessCancelled } from './pause';

/** Lanes that resume together hit the limit together: each adds up to this share of the pause. */
const JITTER_SHARE = 0.2;
const JITTER_CAP_MS = 1_000;

/**
 * One back-off for the whole node run: a 429 from the service pauses every lane that is about to
 * send to it, not only the lane that got it, so N lanes back off once rather than N times. Each
 * waiting lane adds its own small jitter, so they do not all return in the same millisecond.
 */
export class RateLimitGate {
	private resumeAt = 0;
	private pauseMs = 0;
	/** 429 replies the service gave during this run. */
	rateLimitedReplies = 0;

	/** Called on a 429: nothing goes to the service for `ms` from now (a longer pause wins). */
	close(ms: number, now = Date.now()): void {
		this.rateLimitedReplies += 1;
		if (now + ms > this.resumeAt) {
			this.resumeAt = now + ms;
			this.pauseMs = ms;
		}
	}

	/** How long a lane about to send still has to wait, its jitter included; 0 when open. */
	delayFor(now = Date.now(), random: () => number = Math.random): number {
		const left = this.resumeAt - now;
		if (left <= 0) return 0;
		return Math.round(left + random() * Math.min(JITTER_CAP_MS, this.pauseMs * JITTER_SHARE));
	}

	/** Waits until the service may be called again; `false` if the execution was cancelled first. */
	async waitUntilOpen(signal?: AbortSignal): Promise<boolean> {
		for (let delay = this.delayFor(); delay > 0; delay = this.delayFor()) {
			if (!(await pauseUnlessCancelled(delay, signal))) return false;
		}
		return !signal?.aborted;
	}
}
