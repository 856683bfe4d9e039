import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

/** What every `<operation>.operation.ts` exports. The router adds pairing and error handling. */
export interface OperationModule {
	description: INodeProperties[];
	/** Runs the operation for one input item; returns that item's output items. */
	execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]>;
	/** Operations that wait let several items be in flight at once. */
	waits?: boolean;
}
