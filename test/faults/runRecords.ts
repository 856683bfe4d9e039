import type { Simulator } from '../simulator';
import type { RunResult } from '../harness/engine';

// What a run and the simulator recorded, read the same way by every case.

/** Counts start again from zero; tasks and uploads stay (reset() would drop them too). */
export function clearStats(sim: Simulator): void {
	const stats = sim.stats;
	stats.requests.length = 0;
	stats.submitsAccepted = 0;
	stats.cdnAuthRejected = 0;
	for (const route of Object.keys(stats.byRoute)) delete stats.byRoute[route];
}

export function requestsByRoute(sim: Simulator): Record<string, number> {
	return { ...sim.stats.byRoute };
}

export function requestsOn(sim: Simulator, route: string) {
	return sim.stats.requests.filter((entry) => entry.route === route);
}

export function hintsOf(result: RunResult): unknown[] {
	const runData = result.run.data.resultData.runData;
	return Object.values(runData).flatMap((tasks) =>
		tasks.flatMap((task) => (task as { hints?: unknown[] }).hints ?? []),
	);
}

/** Retries the transport logged (one warn line each). */
export function retriesLogged(result: RunResult): number {
	return result.logs.filter(
		(line) => line.level === 'warn' && /; retry \d+ of \d+ in \d+ ms/.test(line.message),
	).length;
}
