import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../simulator';
import type { RunResult, RunSpec } from '../harness/engine';
import { runWorkflow } from '../harness/engine';
import { credentialsFor } from '../harness/simulator';
import { clearStats } from './runRecords';

// The fault cases' parameters and runs. The other support files have one job each; they are
// re-exported here so a case imports from one place.
export * from './caseTable';
export * from './fixedTimeouts';
export * from './keyScan';
export * from './runRecords';

/**
 * Tasks finish the moment they are created, so a wait needs exactly one task query and every
 * count in the table is one the faults decide, not the machine's speed.
 */
export const FAULT_SIMULATOR = { taskDurationMs: 0 };

/** Short waits everywhere: these tests are about faults, not about patience. */
export const FAST_WAIT = { initialDelay: 0, pollInterval: 0.1, maxWaitTime: 10 };

type Parameters = INodeParameters;

export const generateAndWait = (
	options: Parameters = {},
	extra: Parameters = {},
): INodeParameters => ({
	resource: 'image',
	operation: 'generateAndWait',
	prompt: 'studio shot',
	options: { ...FAST_WAIT, ...options },
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
	options: { ...FAST_WAIT, ...options },
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
	productName: 'Steel bottle',
	imageUrls: `${sim.baseUrl}/v1/open/media/front.png`,
	options,
});

export const plan = (sim: Simulator, options: Parameters = {}): INodeParameters => ({
	resource: 'aPlusPlan',
	operation: 'create',
	productDescription: 'Insulated steel bottle',
	imageUrls: `${sim.baseUrl}/v1/open/media/front.png`,
	modules: ['hero', 'core'],
	options,
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
