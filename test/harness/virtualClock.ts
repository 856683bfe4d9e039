import type { ClientRequest } from 'node:http';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/**
 * A clock the test controls, for tests about *when* something happens. Jest's modern fake timers
 * replace `Date` and `setTimeout` for everything loaded in the test's module registry: the node
 * (its waits are n8n-workflow's `sleep`), n8n-core and the simulator (its tasks finish by
 * `Date.now()`), so the schedule and the task durations run on the same clock. Real socket I/O to
 * the simulator on 127.0.0.1 still runs on the real event loop: the clock moves to the next timer
 * only once every request the process started has been answered and nothing else is under way,
 * so a request takes no virtual time and a poll due at 1.5 s is seen at exactly 1.5 s, however
 * busy the machine is.
 *
 * A reply the simulator holds back (a fault's delayMs) waits on the same clock: a request it holds
 * counts as waiting for a timer, not as I/O under way. A request held by anything else (a socket
 * timeout, which is Node's own timer) would keep the clock from moving: those tests stay on real
 * time.
 */

/** Requests started and not yet closed, seen where Node creates them. */
const open = new Set<ClientRequest>();
const REQUEST_START = 'http.client.request.start';
function trackRequest(message: unknown): void {
	const { request } = message as { request: ClientRequest };
	open.add(request);
	request.once('close', () => open.delete(request));
}
subscribe(REQUEST_START, trackRequest);
// jest loads this harness once per test file, but the channel is the worker process's: each file's
// subscription goes with the file, or every request would carry a listener for each file run before.
if (typeof afterAll === 'function') afterAll(() => unsubscribe(REQUEST_START, trackRequest));

/** Work the event loop is doing for the process that is not a timer: files, lookups, connects. */
const WORK = new Set([
	'FSReqCallback',
	'FSReqPromise',
	'FileHandleCloseReq',
	'GetAddrInfoReqWrap',
	'TCPConnectWrap',
	'ShutdownWrap',
	'WriteWrap',
	'ZlibWrap',
]);

/** Where requests wait on the virtual clock instead of I/O: the simulators' held replies. */
const holders = new Set<() => number>();

/** Counts `held` requests as waiting on the clock (useSimulator registers its simulator). */
export function countHeldReplies(held: () => number): void {
	holders.add(held);
}

function busy(): boolean {
	let held = 0;
	for (const count of holders) held += count();
	return open.size > held || process.getActiveResourcesInfo().some((kind) => WORK.has(kind));
}

/** One turn of the real event loop (setImmediate is left real), I/O callbacks included. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How many quiet turns in a row count as settled. */
const QUIET_TURNS = 5;
/** A request still open after this much real time is held by something only the clock releases. */
const STUCK_MS = 20_000;

/** Lets real I/O finish: returns once nothing is open and the pending timers stopped changing. */
async function settle(): Promise<void> {
	// performance is left real (install): it measures how long real I/O is taking.
	const since = performance.now();
	let quiet = 0;
	let last = jest.getTimerCount();
	while (quiet < QUIET_TURNS) {
		await turn();
		const timers = jest.getTimerCount();
		if (busy() || timers !== last) {
			quiet = 0;
			last = timers;
			if (performance.now() - since > STUCK_MS)
				throw new Error(
					`virtual clock: ${open.size} request(s) still open after ${STUCK_MS / 1000} s of real time`,
				);
		} else quiet++;
	}
}

/** The fake clock starts here, a fixed date, so figures and logged times repeat run to run. */
const EPOCH = Date.UTC(2026, 0, 1);

function install(): void {
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'performance'],
		now: EPOCH,
	});
}

/** Every test of the file runs on the virtual clock; real time comes back after each. */
export function useVirtualClock(): void {
	beforeEach(install);
	afterEach(() => {
		jest.useRealTimers();
	});
}

/**
 * Runs `body` on the virtual clock, for one test in a file whose others run on real time. Inside,
 * drive each run with `onVirtualClock`.
 */
export async function withVirtualClock<T>(body: () => Promise<T>): Promise<T> {
	install();
	try {
		return await body();
	} finally {
		jest.useRealTimers();
	}
}

/** Starts `work` on the virtual clock and drives it to its end; real time again afterwards. */
export async function runOnVirtualClock<T>(work: () => Promise<T>): Promise<T> {
	return await withVirtualClock(async () => await onVirtualClock(work()));
}

/**
 * Drives `work` to its end on the virtual clock: lets real I/O settle, then moves the clock to the
 * next timer, again and again. A run that would wait forever ends at `limitMs` of virtual time
 * with an error instead.
 */
export async function onVirtualClock<T>(work: Promise<T>, limitMs = 3_600_000): Promise<T> {
	let done = false;
	const watched = work.finally(() => {
		done = true;
	});
	watched.catch(() => {});
	const until = Date.now() + limitMs;
	for (;;) {
		await settle();
		if (done) return await watched;
		if (jest.getTimerCount() === 0) {
			// Nothing scheduled and nothing open: something real is still under way.
			await new Promise<void>((resolve) => setImmediate(resolve));
			continue;
		}
		if (Date.now() > until) throw new Error(`virtual clock: still running after ${limitMs} ms`);
		await jest.advanceTimersToNextTimerAsync();
	}
}

/** Moves the clock `ms` forward, running every timer due on the way, with real I/O settled between. */
export async function advanceVirtualClock(ms: number): Promise<void> {
	// A timer of its own marks the end: it takes its place among the others.
	await onVirtualClock(new Promise<void>((resolve) => setTimeout(resolve, ms)));
}
