import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

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
}
