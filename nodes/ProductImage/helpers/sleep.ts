import { sleep } from 'n8n-workflow';

/** Short slices, so a cancelled execution stops waiting within a quarter second. */
const SLICE_MS = 250;

/** Sleeps `ms`, returning early with `false` once the execution is cancelled. */
export async function sleepUnlessCancelled(ms: number, signal?: AbortSignal): Promise<boolean> {
	const end = Date.now() + ms;
	for (;;) {
		if (signal?.aborted) return false;
		const left = end - Date.now();
		if (left <= 0) return true;
		await sleep(Math.min(left, SLICE_MS));
	}
}
