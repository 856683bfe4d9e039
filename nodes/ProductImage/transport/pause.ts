import { sleep } from 'n8n-workflow';

/** A cancelled wait leaves its last timer behind (n8n-workflow's sleep cannot be cleared): keep it short. */
const STEP_MS = 1_000;

/**
 * Waits `ms`, or less if the execution is cancelled (then `false`). The wait ends on the signal's
 * abort event itself, so a cancelled run stops at once however long the pause was.
 */
export async function pauseUnlessCancelled(ms: number, signal?: AbortSignal): Promise<boolean> {
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
			const step = sleep(Math.min(left, STEP_MS)).then(() => true);
			if (!(await Promise.race([step, aborted]))) return false;
		}
	} finally {
		if (onAbort) signal?.removeEventListener('abort', onAbort);
	}
}
