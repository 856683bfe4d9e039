import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { outcomeOf } from './helpers/outcome';
import { optionOrDefault, readOptions } from './helpers/parameters';
import type { AcceptedTask } from './transport';
import { resumeAdvice, runStateOf, withoutAngleBrackets } from './transport';
import { KEPT_FOR } from './serviceFacts';

/**
 * What every `<operation>.operation.ts` exports. The router reads every item's parameters before
 * the first request, then runs the items; it adds pairing and error handling.
 */
export interface OperationModule<Parameters = unknown> {
	description: INodeProperties[];
	/** Reads and checks one item's parameters; sends nothing, so a typo on any item costs nothing. */
	readParameters(this: IExecuteFunctions, itemIndex: number): Parameters;
	/** Runs the operation for one input item; returns that item's output items. */
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		parameters: Parameters,
	): Promise<INodeExecutionData[]>;
	/**
	 * Checks the run as a whole once every item's parameters are read, before the first request:
	 * `ready` is how many items will run.
	 */
	checkRun?(this: IExecuteFunctions, ready: number): void;
	/** Items of operations that spend their time waiting on the service run several at a time. */
	runsConcurrently?: boolean;
	/** Looks at the run's output once, after every item: for hints about the output as a whole. */
	afterRun?(this: IExecuteFunctions, output: INodeExecutionData[]): void;
}

/**
 * What the router runs: one node version's operations by resource, and the option of that
 * version that says how many items run at once.
 */
export interface NodeVersion {
	resources: Record<string, Record<string, OperationModule>>;
	concurrencyOption: INodeProperties;
}

/**
 * Continue On Fail: the error becomes this item's output, with what is known to resume or report
 * it, and its outcome (helpers/outcome.ts).
 */
function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const record = (error ?? {}) as {
		message?: string;
		description?: string;
		httpCode?: string;
		context?: IDataObject;
	};
	const context = record.context ?? {};
	const json: IDataObject = { error: record.message ?? String(error) };
	if (record.description) json.description = record.description;
	if (record.httpCode) json.httpCode = record.httpCode;
	for (const key of ['taskId', 'requestId', 'serviceCode', 'url'] as const) {
		if (context[key] !== undefined && context[key] !== null) json[key] = context[key];
	}
	// Whether the service said no (final) or this run could not finish a step (look again later).
	json.outcome = outcomeOf(error);
	return { json, pairedItem: { item: itemIndex } };
}

/** Read from the first item before any item runs, so its value counts for all. */
function concurrencyFor(
	context: IExecuteFunctions,
	operation: OperationModule,
	option: INodeProperties,
): number {
	if (!operation.runsConcurrently) return 1;
	const value = Number(optionOrDefault(readOptions(context, 0), option));
	return Number.isFinite(value) && value >= 1 ? Math.floor(value) : 1;
}

/**
 * Runs `work(index)` for 0..count-1 with at most `limit` in flight. Results land at their index,
 * so output order never depends on which item finished first. After the first failure no new
 * index starts; those in flight finish, then the failure is raised.
 */
export async function forEachLimited(
	count: number,
	limit: number,
	work: (index: number) => Promise<void>,
): Promise<void> {
	let next = 0;
	let failure: { error: unknown } | undefined;
	const worker = async () => {
		while (!failure && next < count) {
			const index = next++;
			try {
				await work(index);
			} catch (error) {
				failure ??= { error };
			}
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, count)) }, worker));
	if (failure) throw failure.error;
}

/**
 * The title as n8n's guidelines write it: the item named at its end in n8n's own form ("[item 2]",
 * counted from 0 as the engine counts), no angle bracket in it (the editor's toast is HTML).
 */
function withItemInTitle<E extends NodeApiError | NodeOperationError>(error: E): E {
	const tag = ` [item ${String(error.context.itemIndex)}]`;
	const title = withoutAngleBrackets(error.message);
	error.message = title.endsWith(tag) ? title : `${title}${tag}`;
	return error;
}

/** The error of one item, as n8n shows it: its own class kept, the item it belongs to named. */
function itemError(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return withItemInTitle(error);
	}
	return withItemInTitle(new NodeOperationError(context.getNode(), error as Error, { itemIndex }));
}

/**
 * Without Continue On Fail the node's output is lost, and with it every task id the run got:
 * name each one, so what was paid for can still be collected.
 */
function listAcceptedTasks(
	error: NodeApiError | NodeOperationError,
	accepted: AcceptedTask[],
): void {
	if (!accepted.length) return;
	const sorted = [...accepted].sort((a, b) => a.itemIndex - b.itemIndex);
	const list = sorted.map(({ itemIndex, taskId }) => `item ${itemIndex}: ${taskId}`).join(', ');
	const advice = `The service had already accepted ${accepted.length} generation(s) of this run (${list}); they are billed, and their images stay at the service for ${KEPT_FOR}. ${resumeAdvice('these task IDs')}`;
	error.description = error.description ? `${error.description} ${advice}` : advice;
	error.context.acceptedTasks = sorted.map(({ itemIndex, taskId }) => ({ itemIndex, taskId }));
}

/**
 * Every item's parameters, read before the first request; with Continue On Fail an item whose
 * parameters cannot be used gets its error item in `outputs` and is left out.
 */
function readEveryItem(
	context: IExecuteFunctions,
	operation: OperationModule,
	outputs: INodeExecutionData[][],
): Map<number, unknown> {
	const parameters = new Map<number, unknown>();
	for (let itemIndex = 0; itemIndex < outputs.length; itemIndex++) {
		try {
			parameters.set(itemIndex, operation.readParameters.call(context, itemIndex));
		} catch (error) {
			if (!context.continueOnFail()) throw itemError(context, error, itemIndex);
			outputs[itemIndex] = [errorItem(error, itemIndex)];
		}
	}
	return parameters;
}

/**
 * Reads every item's parameters first, then runs the operation for every item. Items may overlap
 * in time (operations that wait), but each item's output lands in its own slot, so the output
 * follows input order and pairing. Without Continue On Fail the first failure stops the run: no
 * new item starts, items that wait stop waiting, and the error lists the tasks already accepted.
 */
export async function router(
	this: IExecuteFunctions,
	{ resources, concurrencyOption }: NodeVersion,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" of "${resource}" is not supported`,
		);
	}
	const continueOnFail = this.continueOnFail();
	const outputs: INodeExecutionData[][] = new Array(items.length);
	const parameters = readEveryItem(this, operation, outputs);
	const ready = [...parameters.keys()];
	operation.checkRun?.call(this, ready.length);
	const run = runStateOf(this);
	if (operation.runsConcurrently) run.concurrencyLabel = concurrencyOption.displayName;
	try {
		await forEachLimited(
			ready.length,
			concurrencyFor(this, operation, concurrencyOption),
			async (position) => {
				const itemIndex = ready[position];
				try {
					const produced = await operation.execute.call(this, itemIndex, parameters.get(itemIndex));
					outputs[itemIndex] = produced.map((item) => ({
						...item,
						pairedItem: { item: itemIndex },
					}));
				} catch (error) {
					if (!continueOnFail) {
						run.stop.abort();
						throw itemError(this, error, itemIndex);
					}
					outputs[itemIndex] = [errorItem(error, itemIndex)];
				}
			},
		);
	} catch (error) {
		const failure = itemError(this, error, 0);
		listAcceptedTasks(failure, run.acceptedTasks);
		throw failure;
	}
	const output = outputs.flat();
	operation.afterRun?.call(this, output);
	if (run.retries.length) {
		const reasons = [...new Set(run.retries.map((retry) => retry.reason))].join(', ');
		this.addExecutionHints?.({
			message: `${run.retries.length} request(s) were retried after ${reasons}. All retries are in the n8n log.`,
			location: 'outputPane',
		});
	}
	return [output];
}
