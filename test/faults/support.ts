import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { ClientRequest } from 'node:http';
import path from 'node:path';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { Simulator } from '../simulator';
import { pairedIndexes } from '../harness/fixtures';
import type { RunResult, RunSpec } from '../harness/engine';
import { runWorkflow } from '../harness/engine';
import { credentialsFor } from '../harness/simulator';

/**
 * Tasks finish the moment they are created, so a wait needs exactly one task query and every
 * count in the table is one the faults decide, not the machine's speed.
 */
export const FAULT_SIMULATOR = { taskDurationMs: 0 };

/** Short waits everywhere: these tests are about faults, not about patience. */
export const FAST_WAIT = { initialDelay: 0, pollInterval: 0.1, maxWaitTime: 10 };

type Parameters = INodeParameters;

export const generateAndWait = (options: Parameters = {}, extra: Parameters = {}): INodeParameters => ({
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

export const taskGet = (taskId: string): INodeParameters => ({ resource: 'task', operation: 'get', taskId });

export const download = (url: string): INodeParameters => ({ resource: 'image', operation: 'download', url });

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
	const result = await run(sim, { nodes: [{ parameters: generateAndWait({ downloadImages: false }) }] });
	const json = result.items[0]?.json;
	if (!json?.task_id || !json.url) throw new Error(`seeding a task failed: ${result.error?.message}`);
	clearStats(sim);
	return { taskId: String(json.task_id), url: String(json.url) };
}

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
	return Object.values(runData).flatMap((tasks) => tasks.flatMap((task) => (task as { hints?: unknown[] }).hints ?? []));
}

/** Retries the transport logged (one warn line each). */
export function retriesLogged(result: RunResult): number {
	return result.logs.filter((line) => line.level === 'warn' && /; retry \d+ of \d+ in \d+ ms/.test(line.message)).length;
}

function safeStringify(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (key, entry: unknown) => {
		if (typeof entry === 'bigint') return entry.toString();
		// Image bytes kept in memory as base64: nothing a person reads, and megabytes of it.
		if (key === 'data' && typeof entry === 'string' && entry.length > 4_096) return `[${entry.length} base64 characters]`;
		if (entry instanceof Error) {
			const own: Record<string, unknown> = { name: entry.name, message: entry.message, stack: entry.stack };
			for (const key of Object.getOwnPropertyNames(entry)) own[key] = (entry as unknown as Record<string, unknown>)[key];
			entry = own;
		}
		if (typeof entry === 'object' && entry !== null) {
			if (seen.has(entry)) return '[circular]';
			seen.add(entry);
		}
		return entry;
	});
}

/**
 * Every place a run can show something to a person or a log: output items, the error with its
 * description and context, execution hints, log lines with their metadata, and the whole stored run.
 */
export function surfacesOf(result: RunResult): Record<string, string> {
	const error = result.error;
	return {
		items: safeStringify(result.items),
		outputs: safeStringify(result.outputs),
		errorMessage: String(error?.message ?? ''),
		errorDescription: String(error?.description ?? ''),
		errorContext: safeStringify(error?.context ?? {}),
		error: safeStringify(error ?? {}),
		hints: safeStringify(hintsOf(result)),
		logs: safeStringify(result.logs),
		run: safeStringify(result.run),
	};
}

const FRAGMENT = 12;

/** The key, every 12-character piece of it (a partly masked key still leaks) and its base64 form. */
function keyForms(key: string): string[] {
	const pieces = new Set<string>();
	for (let start = 0; start + FRAGMENT <= key.length; start++) pieces.add(key.slice(start, start + FRAGMENT));
	return [key, ...pieces, Buffer.from(key).toString('base64')];
}

export function keyLeaks(result: RunResult, key: string): string[] {
	const leaks = new Set<string>();
	const forms = keyForms(key);
	for (const [surface, text] of Object.entries(surfacesOf(result))) {
		if (text.includes(key)) leaks.add(`${surface} contains the key`);
		else if (forms.some((form) => text.includes(form))) leaks.add(`${surface} contains part of the key`);
	}
	return [...leaks];
}

/** Which origins saw the key: only the credential's own may. */
export function authorizationOrigins(sim: Simulator): string[] {
	return [...new Set(sim.stats.requests.filter((entry) => entry.authorization !== undefined).map((entry) => entry.origin))];
}

// --- the case registry behind the README table -------------------------------------------------

export const RESULTS_DIR = path.resolve(__dirname, '..', '..', 'test-results');
export const CASES_FILE = path.join(RESULTS_DIR, 'fault-cases.jsonl');
/** Everything each case showed (items, error, hints, logs, the stored run), for a search of the whole run. */
export const OUTPUTS_FILE = path.join(RESULTS_DIR, 'fault-outputs.jsonl');
const RUN_MARKER = path.join(RESULTS_DIR, 'fault-cases.run');

/** Jest workers are children of the one jest process; a run in band is that process itself. */
const runId = String(process.env.JEST_WORKER_ID ? process.ppid : process.pid);
let prepared = false;

function pause(ms: number): void {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The file holds one run. Whichever worker of a run writes first empties it; an exclusive claim
 * file decides who that is, and the others wait for its marker before they append.
 */
function prepareCasesFile(): void {
	if (prepared) return;
	prepared = true;
	mkdirSync(RESULTS_DIR, { recursive: true });
	const claim = path.join(RESULTS_DIR, `fault-cases.${runId}.claim`);
	try {
		writeFileSync(claim, '', { flag: 'wx' });
	} catch {
		for (let waited = 0; waited < 10_000; waited += 20) {
			try {
				if (readFileSync(RUN_MARKER, 'utf8') === runId) return;
			} catch {
				// not written yet
			}
			pause(20);
		}
		return;
	}
	writeFileSync(CASES_FILE, '');
	writeFileSync(OUTPUTS_FILE, '');
	writeFileSync(RUN_MARKER, runId);
	for (const name of readdirSync(RESULTS_DIR)) {
		if (/^fault-cases\.\d+\.claim$/.test(name) && name !== path.basename(claim)) {
			rmSync(path.join(RESULTS_DIR, name), { force: true });
		}
	}
}

export interface CaseRecord {
	case: string;
	operation: string;
	injected: string;
	outcome: string;
	retries: number;
	submitsAccepted: number;
	/** Requests per route; a count that depends on timing is shown as the bound the case asserts. */
	requests: Record<string, number | string>;
	items: { in: number; out: number };
}

let sequence = 0;

export function recordCase(entry: CaseRecord, surfaces?: Record<string, string>): void {
	prepareCasesFile();
	const testPath = expect.getState().testPath ?? '';
	const line = { topic: path.basename(testPath).replace(/\.test\.ts$/, ''), seq: sequence++, ...entry };
	appendFileSync(CASES_FILE, `${JSON.stringify(line)}\n`);
	if (surfaces) appendFileSync(OUTPUTS_FILE, `${JSON.stringify({ topic: line.topic, case: entry.case, surfaces })}\n`);
}

/** Ids and ports change every run; the table should not. */
function stable(text: string): string {
	return text
		.replace(/task_[A-Za-z0-9]+/g, 'task_…')
		.replace(/req_[A-Za-z0-9]+/g, 'req_…')
		.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:…')
		.replace(/\s+/g, ' ')
		.trim();
}

/** What a person would see: success, the node's error, or per item what happened. */
export function measuredOutcome(result: RunResult, inputCount: number): string {
	const parts: string[] = [];
	if (result.error) parts.push(`error: ${stable(result.error.message)}`);
	const failed = result.items.filter((item) => typeof item.json.error === 'string');
	if (failed.length > 0) {
		const failedInputs = new Set(pairedIndexes(failed)).size;
		const first = failed[0];
		parts.push(
			`${inputCount - failedInputs} of ${inputCount} items ok; item ${pairedIndexes([first])[0]}: ${stable(String(first.json.error))}`,
		);
	}
	if (parts.length === 0) parts.push(retriesLogged(result) > 0 ? 'recovered' : 'completed');
	return parts.join('; ');
}

/**
 * Tasks the service created, per input item. A run of several items gives each its own prompt
 * (`promptItems` with `PROMPT_FROM_ITEM`), so every task can be traced to the item that sent it.
 */
export function submitsPerItem(sim: Simulator, inputCount: number): number[] {
	const counts = new Array<number>(inputCount).fill(0);
	for (const task of sim.tasks.values()) {
		const index = inputCount === 1 ? 0 : Number(/^item (\d+)$/.exec(String(task.body.prompt))?.[1] ?? NaN);
		if (!(index >= 0 && index < inputCount)) throw new Error(`task ${task.task_id} cannot be traced to an input item`);
		counts[index] += 1;
	}
	return counts;
}

/** The counts of `requests`, with timing-dependent ones checked against and shown as their bound. */
function boundRequests(requests: Record<string, number>, bounded: Record<string, number> = {}): Record<string, number | string> {
	const shown: Record<string, number | string> = { ...requests };
	for (const [route, bound] of Object.entries(bounded)) {
		expect(requests[route] ?? 0).toBeLessThanOrEqual(bound);
		shown[route] = `≤ ${bound}`;
	}
	return shown;
}

/**
 * The checks every fault case shares, then its row in the table: the key is nowhere, only the
 * credential's origin saw it, no item got two submits, every output item is paired with an input.
 * `bounded` names routes whose request count depends on timing (polls until a deadline or a
 * cancel): the table shows the asserted bound, so it reads the same on every run.
 */
export function finishCase(
	sim: Simulator,
	result: RunResult,
	row: { case: string; operation: string; injected: string; inputCount?: number; bounded?: Record<string, number> },
): void {
	const inputCount = row.inputCount ?? 1;
	expect(keyLeaks(result, sim.apiKey)).toEqual([]);
	expect(authorizationOrigins(sim).filter((origin) => origin !== 'main')).toEqual([]);
	expect(sim.stats.cdnAuthRejected).toBe(0);
	for (const submits of submitsPerItem(sim, inputCount)) expect(submits).toBeLessThanOrEqual(1);
	// Output follows input order; a run without a node error answers every item; a failed item
	// becomes exactly one error item.
	const paired = pairedIndexes(result.items);
	for (const index of paired) expect(index).toBeGreaterThanOrEqual(0);
	expect(paired).toEqual([...paired].sort((a, b) => a - b));
	if (!result.error) expect(new Set(paired)).toEqual(new Set(Array.from({ length: inputCount }, (_, index) => index)));
	const errorItems = pairedIndexes(result.items.filter((item) => typeof item.json.error === 'string'));
	expect(new Set(errorItems).size).toBe(errorItems.length);
	for (const index of errorItems) expect(paired.filter((entry) => entry === index)).toHaveLength(1);
	recordCase({
		case: row.case,
		operation: row.operation,
		injected: row.injected,
		outcome: measuredOutcome(result, inputCount),
		retries: retriesLogged(result),
		submitsAccepted: sim.stats.submitsAccepted,
		requests: boundRequests(requestsByRoute(sim), row.bounded),
		items: { in: inputCount, out: result.items.length },
	}, surfacesOf(result));
}

// --- fixed timeouts ----------------------------------------------------------------------------

/**
 * The node's own timeouts for submit (60 s), task queries (30 s) and downloads (120 s) are not
 * options, and a test cannot wait that long. HTTP clients arm them with `ClientRequest#setTimeout`,
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
