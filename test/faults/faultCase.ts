import { ClientRequest } from 'node:http';

import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../simulator';
import type { RunResult, RunSpec } from '../harness/engine';
import { currentVersionOptions } from '../harness/fixtures';
import { runWorkflow } from '../harness/engine';
import { credentialsFor } from '../harness/simulator';

// How a fault case is set up and run, and what it reads back from the run and the simulator.
// The checks every case shares and its row in the fault table are in faultTable.ts; where the
// key must never appear is keyScan.ts.

/**
 * Tasks finish the moment they are created, so a wait needs exactly one task query and every
 * count in the table is one the faults decide, not the machine's speed.
 */
export const FAULT_SIMULATOR = { taskDurationMs: 0 };

/** Short waits everywhere: these tests are about faults, not about patience. */
const FAST_WAIT = { initialDelay: 0, pollInterval: 0.1, maxWaitTime: 10 };

type Parameters = INodeParameters;

export const generateAndWait = (
	options: Parameters = {},
	extra: Parameters = {},
): INodeParameters => ({
	resource: 'image',
	operation: 'generateAndWait',
	prompt: 'studio shot',
	options: currentVersionOptions({ ...FAST_WAIT, ...options }),
	...extra,
});

export const generate = (extra: Parameters = {}): INodeParameters => ({
	resource: 'image',
	operation: 'generate',
	prompt: 'studio shot',
	...extra,
});

export const taskWait = (taskId: string, options: Parameters = {}): INodeParameters => ({
	resource: 'task',
	operation: 'wait',
	taskId,
	options: currentVersionOptions({ ...FAST_WAIT, ...options }),
});

export const taskGet = (taskId: string): INodeParameters => ({
	resource: 'task',
	operation: 'get',
	taskId,
});

export const download = (url: string): INodeParameters => ({
	resource: 'image',
	operation: 'download',
	url,
});

export const analyze = (sim: Simulator, options: Parameters = {}): INodeParameters => ({
	resource: 'analysis',
	operation: 'analyze',
	productDetails: { productName: 'Steel bottle' },
	imageUrls: `${sim.baseUrl}/v1/open/media/front.png`,
	options,
});

export const plan = (sim: Simulator, options: Parameters = {}): INodeParameters => ({
	resource: 'aPlusPlan',
	operation: 'create',
	descriptionSource: 'define',
	productDescription: 'Insulated steel bottle',
	imageUrls: `${sim.baseUrl}/v1/open/media/front.png`,
	modules: ['hero', 'core'],
	// The whole plan as one item, as version 1 outputs it.
	options: { splitModules: false, ...options },
});

/** Input items that carry their own prompt, so each submitted task can be traced to its item. */
export function promptItems(count: number): INodeExecutionData[] {
	return Array.from({ length: count }, (_, index) => ({ json: { prompt: `item ${index}` } }));
}

export const PROMPT_FROM_ITEM = '={{ $json.prompt }}';

export async function run(
	sim: Pick<Simulator, 'baseUrl' | 'apiKey'>,
	spec: Omit<RunSpec, 'credentials'>,
): Promise<RunResult> {
	return await runWorkflow({ credentials: credentialsFor(sim as Simulator), ...spec });
}

/** Creates a finished task directly through the service, for the cases that start at Task → Wait or Download. */
export async function seedTask(sim: Simulator): Promise<{ taskId: string; url: string }> {
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({ downloadImages: false }) }],
	});
	const json = result.items[0]?.json;
	if (!json?.task_id || !json.url)
		throw new Error(`seeding a task failed: ${result.error?.message}`);
	clearStats(sim);
	return { taskId: String(json.task_id), url: String(json.url) };
}

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

/**
 * The node's own timeouts for task queries (30 s) and downloads (120 s) are not options, and a
 * test cannot wait that long. HTTP clients arm them with `ClientRequest#setTimeout`,
 * so this maps those exact values to short ones while a test runs. Returns the undo.
 */
export function shrinkFixedTimeouts(map: Record<number, number>): () => void {
	const prototype = ClientRequest.prototype;
	const original = prototype.setTimeout;
	prototype.setTimeout = function (this: ClientRequest, ms: number, callback?: () => void) {
		return original.call(this, map[ms] ?? ms, callback);
	} as typeof original;
	return () => {
		prototype.setTimeout = original;
	};
}

/**
 * A submit that may have created a task says so, says not to run the item again blindly, and
 * names a request id to give the provider; it never sends the user to the Base URL.
 */
export function expectSubmitUnsureAdvice(
	description: string | undefined,
	requestId?: RegExp,
): void {
	expect(description).toContain('may have created the task');
	expect(description).toContain('Do not run this item again blindly');
	expect(description).not.toContain('Base URL');
	expect(description).toMatch(
		requestId ?? /request ID req_[0-9a-f]+|request ID this node sent, n8n-[0-9a-f-]{36}/,
	);
}
