import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import type { INodeExecutionData } from 'n8n-workflow';

import type { Simulator } from '../simulator';
import { pairedIndexes } from '../harness/fixtures';
import type { RunResult } from '../harness/engine';
import { requestsByRoute, retriesLogged } from './faultCase';
import { authorizationOrigins, keyLeaks, surfacesOf } from './keyScan';

// The checks every fault case shares, and its row in docs/reliability.md's fault table, which
// scripts/fault-table.js merges from the files written here.

/**
 * One file per test file, `<topic>.jsonl`, so jest workers never write into the same file: the
 * first case of a test file empties its own file, and the script merges them all.
 */
const RECORDS_DIR = path.resolve(__dirname, '..', '..', 'test-results', 'fault-cases');

/**
 * The jest run that wrote a record: workers are children of the one jest process, a run in band
 * is that process itself. The script refuses to merge files of different runs (a file run alone).
 */
const runId = String(process.env.JEST_WORKER_ID ? process.ppid : process.pid);
let recordsFile: string | undefined;

interface CaseRecord {
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

/** `surfaces`: everything the case showed, which the script searches for the key once more. */
function recordCase(entry: CaseRecord, surfaces?: Record<string, string>): void {
	const topic = path.basename(expect.getState().testPath ?? '').replace(/\.test\.ts$/, '');
	if (recordsFile === undefined) {
		mkdirSync(RECORDS_DIR, { recursive: true });
		recordsFile = path.join(RECORDS_DIR, `${topic}.jsonl`);
		writeFileSync(recordsFile, '');
	}
	const line = { run: runId, topic, seq: sequence++, ...entry, ...(surfaces ? { surfaces } : {}) };
	appendFileSync(recordsFile, `${JSON.stringify(line)}\n`);
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

/** An error as n8n shows it: its title, then the start of its description. */
function shownError(message: unknown, description: unknown): string {
	const title = stable(String(message));
	return typeof description === 'string' && description
		? `${title} — ${stable(description)}`
		: title;
}

/** A task state a wait handed on when Max Wait Time ran out (On Timeout → Output Task State). */
function shownTimeout(json: INodeExecutionData['json']): string {
	const lastCheck = json.last_check_error ? `, last check ${String(json.last_check_error)}` : '';
	return `status ${String(json.status ?? 'none')}, outcome ${String(json.outcome)}${lastCheck}`;
}

/**
 * What a person would see: success, the node's error, or per item what happened (an error item
 * with its outcome, or a task state handed on at Max Wait Time).
 */
function measuredOutcome(result: RunResult, inputCount: number): string {
	const parts: string[] = [];
	if (result.error)
		parts.push(`error: ${shownError(result.error.message, result.error.description)}`);
	const failed = result.items.filter((item) => typeof item.json.error === 'string');
	if (failed.length > 0) {
		const failedInputs = new Set(pairedIndexes(failed)).size;
		const first = failed[0];
		parts.push(
			`${inputCount - failedInputs} of ${inputCount} items ok; item ${pairedIndexes([first])[0]} (outcome ${String(first.json.outcome)}): ${shownError(first.json.error, first.json.description)}`,
		);
	}
	const timedOut = result.items.filter((item) => item.json.timed_out === true);
	if (timedOut.length > 0) {
		const first = timedOut[0];
		parts.push(
			`${timedOut.length} of ${inputCount} items timed out, task state handed on; item ${pairedIndexes([first])[0]}: ${shownTimeout(first.json)}`,
		);
	}
	if (parts.length === 0) parts.push(retriesLogged(result) > 0 ? 'recovered' : 'completed');
	return parts.join('; ');
}

function itemOf(prompt: unknown, inputCount: number, what: string): number {
	const index = inputCount === 1 ? 0 : Number(/^item (\d+)$/.exec(String(prompt))?.[1] ?? NaN);
	if (!(index >= 0 && index < inputCount))
		throw new Error(`${what} cannot be traced to an input item`);
	return index;
}

/**
 * Submits per input item that the service may have taken: every submit request that reached it,
 * except those it refused with 429 (it said no, so the node may send again). A run of several
 * items gives each its own prompt (`promptItems` with `PROMPT_FROM_ITEM`), so every submit can be
 * traced to the item that sent it.
 */
function submitsPerItem(sim: Simulator, inputCount: number): number[] {
	const counts = new Array<number>(inputCount).fill(0);
	for (const request of sim.stats.requests) {
		if (request.route !== 'submit' || request.status === 429) continue;
		counts[
			itemOf(request.prompt, inputCount, `submit request ${request.method} ${request.path}`)
		] += 1;
	}
	return counts;
}

/** Tasks the service created, per input item. */
function tasksPerItem(sim: Simulator, inputCount: number): number[] {
	const counts = new Array<number>(inputCount).fill(0);
	for (const task of sim.tasks.values())
		counts[itemOf(task.body.prompt, inputCount, `task ${task.task_id}`)] += 1;
	return counts;
}

/** The counts of `requests`, with timing-dependent ones checked against and shown as their bound. */
function boundRequests(
	requests: Record<string, number>,
	bounded: Record<string, number> = {},
): Record<string, number | string> {
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
	row: {
		case: string;
		operation: string;
		injected: string;
		inputCount?: number;
		bounded?: Record<string, number>;
	},
): void {
	const inputCount = row.inputCount ?? 1;
	expect(keyLeaks(result, sim.apiKey)).toEqual([]);
	expect(authorizationOrigins(sim).filter((origin) => origin !== 'main')).toEqual([]);
	expect(sim.stats.cdnAuthRejected).toBe(0);
	for (const submits of submitsPerItem(sim, inputCount)) expect(submits).toBeLessThanOrEqual(1);
	for (const tasks of tasksPerItem(sim, inputCount)) expect(tasks).toBeLessThanOrEqual(1);
	// Output follows input order; a run without a node error answers every item; a failed item
	// becomes exactly one error item.
	const paired = pairedIndexes(result.items);
	for (const index of paired) expect(index).toBeGreaterThanOrEqual(0);
	expect(paired).toEqual([...paired].sort((a, b) => a - b));
	if (!result.error)
		expect(new Set(paired)).toEqual(
			new Set(Array.from({ length: inputCount }, (_, index) => index)),
		);
	const errorItems = pairedIndexes(
		result.items.filter((item) => typeof item.json.error === 'string'),
	);
	expect(new Set(errorItems).size).toBe(errorItems.length);
	for (const index of errorItems) expect(paired.filter((entry) => entry === index)).toHaveLength(1);
	recordCase(
		{
			case: row.case,
			operation: row.operation,
			injected: row.injected,
			outcome: measuredOutcome(result, inputCount),
			retries: retriesLogged(result),
			submitsAccepted: sim.stats.submitsAccepted,
			requests: boundRequests(requestsByRoute(sim), row.bounded),
			items: { in: inputCount, out: result.items.length },
		},
		surfacesOf(result),
	);
}
