import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { optionOrDefault, readOptions, withInputFields } from './helpers/parameters';
import { goneAtTheService, NEXT_STEP } from './helpers/task';
import type { AcceptedTask } from './transport/request';
import { resumeAdvice, withoutAngleBrackets } from './transport/guidance';
import { runStateOf } from './transport/request';
import { KEPT_FOR } from './serviceFacts';

/** What every `<operation>.operation.ts` exports. */
export interface OperationModule<Parameters = unknown> {
	description: INodeProperties[];
	/** Sends nothing, so a typo on any item costs nothing. */
	readParameters(this: IExecuteFunctions, itemIndex: number): Parameters;
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		parameters: Parameters,
	): Promise<INodeExecutionData[]>;
	/** Before the first request: `ready` is how many items will run. */
	checkRun?(this: IExecuteFunctions, ready: number): void;
	/** Items of operations that spend their time waiting on the service run several at a time. */
	runsConcurrently?: boolean;
	/** Its own option for how many items run at once, where its default differs from the version's. */
	concurrencyOption?: INodeProperties;
	/** On, its items keep the input item's other fields, its failed items too. */
	inputFieldsOption?: INodeProperties;
	afterRun?(this: IExecuteFunctions, output: INodeExecutionData[]): void;
}

/** One node version's operations by resource, and its option for how many items run at once. */
export interface NodeVersion {
	resources: Record<string, Record<string, OperationModule>>;
	concurrencyOption: INodeProperties;
	/** Under Continue On Fail, a hint names the failed items: n8n's green check counts items. */
	namesFailedItems?: boolean;
	/** Added to the error that stops a run of several items, the second when tasks were accepted. */
	stopAdvice?: { noTasks: string; acceptedTasks: string };
}

/** A version's parameters: each operation's, resource by resource, as its lists order them. */
export const propertiesOf = ({ resources }: NodeVersion): INodeProperties[] =>
	Object.values(resources).flatMap((operations) =>
		Object.values(operations).flatMap((operation) => operation.description),
	);

type NextStep = (typeof NEXT_STEP)[keyof typeof NEXT_STEP];

const NEXT_STEPS = new Set<unknown>(Object.values(NEXT_STEP));

/** The step the code that raised the error stated, else what the transport's facts say. */
function nextStepOf(error: unknown): NextStep {
	const record = (error ?? {}) as { httpCode?: unknown; context?: IDataObject };
	const context = record.context ?? {};
	if (NEXT_STEPS.has(context.outcome)) return context.outcome as NextStep;
	if (context.mayHaveCreatedTask === true) return NEXT_STEP.unknown;
	if (context.serviceReply !== undefined || goneAtTheService(record, context))
		return NEXT_STEP.final;
	// A task not reported failed may be fine; a request turned away for now may be sent again.
	if (context.taskId !== undefined || context.transient === true || context.stopped === true)
		return NEXT_STEP.lookAgainLater;
	return NEXT_STEP.final;
}

/** Continue On Fail: the error is the item's output, with what is known to resume or report it. */
function errorItem(
	context: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	keep: INodeProperties | undefined,
): INodeExecutionData {
	const record = (error ?? {}) as Partial<NodeApiError>;
	const facts = record.context ?? {};
	const json: IDataObject = { error: record.message ?? String(error) };
	if (record.description) json.description = record.description;
	if (record.httpCode) json.httpCode = record.httpCode;
	for (const key of ['taskId', 'requestId', 'serviceCode', 'url'] as const) {
		if (facts[key] !== undefined && facts[key] !== null) json[key] = facts[key];
	}
	// Whether the service said no (final) or this run could not finish a step (look again later).
	json.outcome = nextStepOf(error);
	const pairedItem = { item: itemIndex };
	try {
		// A failed item is its product as a succeeded one is.
		if (keep) return { json: withInputFields(context, itemIndex, json, keep), pairedItem };
	} catch {
		// Options it cannot read are its error already.
	}
	return { json, pairedItem };
}

/** Read from the first item before any item runs, so its value counts for all. */
function concurrencyFor(
	context: IExecuteFunctions,
	operation: OperationModule,
	option: INodeProperties,
): number {
	if (!operation.runsConcurrently) return 1;
	const value = Number(
		optionOrDefault(readOptions(context, 0), operation.concurrencyOption ?? option),
	);
	return Number.isFinite(value) && value >= 1 ? Math.floor(value) : 1;
}

/** After the first failure no new index starts; those in flight finish, then it is raised. */
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

type ItemError = NodeApiError | NodeOperationError;

/** n8n's guidelines: "[item 2]" (from 0) ends the title; no angle bracket (toasts are HTML). */
function withItemInTitle<E extends ItemError>(error: E): E {
	const tag = ` [item ${String(error.context.itemIndex)}]`;
	const title = withoutAngleBrackets(error.message);
	error.message = title.endsWith(tag) ? title : `${title}${tag}`;
	return error;
}

function itemError(context: IExecuteFunctions, error: unknown, itemIndex: number): ItemError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return withItemInTitle(error);
	}
	return withItemInTitle(new NodeOperationError(context.getNode(), error as Error, { itemIndex }));
}

/** Without Continue On Fail the output, and every task id in it, is lost: name what was paid for. */
function listAcceptedTasks(error: ItemError, accepted: AcceptedTask[], more: string): ItemError {
	const sorted = [...accepted].sort((a, b) => a.itemIndex - b.itemIndex);
	const list = sorted.map(({ itemIndex, taskId }) => `item ${itemIndex}: ${taskId}`).join(', ');
	const advice = `The service had already accepted ${accepted.length} generation(s) of this run (${list}); they are billed, and their images stay at the service for ${KEPT_FOR}. ${resumeAdvice('these task IDs')}`;
	const said = [error.description, accepted.length && advice, more].filter(Boolean).join(' ');
	error.description = said || error.description;
	if (accepted.length) error.context.acceptedTasks = sorted;
	return error;
}

/** Continue On Fail: an item whose parameters cannot be used is skipped with its error item. */
function readEveryItem(
	context: IExecuteFunctions,
	operation: OperationModule,
	outputs: INodeExecutionData[][],
	errorItem: (error: unknown, itemIndex: number) => INodeExecutionData,
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

/** Every item's parameters are read before the first request; outputs keep input order. */
export async function router(
	this: IExecuteFunctions,
	{ resources, concurrencyOption, namesFailedItems, stopAdvice }: NodeVersion,
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
	const failed: number[] = [];
	const keep = operation.inputFieldsOption;
	const failedItem = (error: unknown, at: number) => (
		failed.push(at),
		errorItem(this, error, at, keep)
	);
	const parameters = readEveryItem(this, operation, outputs, failedItem);
	const ready = [...parameters.keys()];
	operation.checkRun?.call(this, ready.length);
	const run = runStateOf(this);
	if (operation.runsConcurrently)
		run.concurrencyLabel = (operation.concurrencyOption ?? concurrencyOption).displayName;
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
					outputs[itemIndex] = [failedItem(error, itemIndex)];
				}
			},
		);
	} catch (error) {
		const advice = run.acceptedTasks.length ? stopAdvice?.acceptedTasks : stopAdvice?.noTasks;
		const more = items.length > 1 ? advice : undefined;
		throw listAcceptedTasks(itemError(this, error, 0), run.acceptedTasks, more ?? '');
	}
	if (failed.length && namesFailedItems) hintFailedItems(this, failed, outputs.length);
	const output = outputs.flat();
	operation.afterRun?.call(this, output);
	hintRetries(this, run.retries);
	return [output];
}

function hintFailedItems(context: IExecuteFunctions, failed: number[], count: number): void {
	failed.sort((a, b) => a - b);
	const named = failed.slice(0, 10).map((index) => `item ${index}`);
	context.addExecutionHints?.({
		message: `${failed.length} of ${count} items failed: ${named.join(', ')}${failed.length > 10 ? ', …' : ''}. Each failed item holds 'error' and 'outcome'; the other items are complete.`,
		type: 'warning',
		location: 'outputPane',
	});
}

function hintRetries(context: IExecuteFunctions, retries: Array<{ reason: string }>): void {
	if (!retries.length) return;
	const reasons = [...new Set(retries.map((retry) => retry.reason))].join(', ');
	context.addExecutionHints?.({
		message: `${retries.length} request(s) were retried after ${reasons}. All retries are in the n8n log.`,
		location: 'outputPane',
	});
}
