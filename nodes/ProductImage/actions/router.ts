import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { forEachLimited } from '../helpers/concurrency';
import { WAIT_DEFAULTS } from '../helpers/waitSettings';
import { openedSession } from '../transport/session';
import * as aPlusPlan from './aPlusPlan/APlusPlan.resource';
import * as analysis from './analysis/Analysis.resource';
import * as image from './image/Image.resource';
import * as task from './task/Task.resource';
import type { OperationModule } from './types';

const resources: Record<string, Record<string, OperationModule>> = {
	image: image.operations,
	task: task.operations,
	analysis: analysis.operations,
	aPlusPlan: aPlusPlan.operations,
};

/** Continue On Fail: the error becomes this item's output, with what is known to resume or report it. */
function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const record = (error ?? {}) as { message?: string; description?: string; httpCode?: string; context?: IDataObject };
	const context = record.context ?? {};
	const json: IDataObject = { error: record.message ?? String(error) };
	if (record.description) json.description = record.description;
	if (record.httpCode) json.httpCode = record.httpCode;
	for (const key of ['taskId', 'requestId', 'serviceCode', 'url'] as const) {
		if (context[key] !== undefined && context[key] !== null) json[key] = context[key];
	}
	return { json, pairedItem: { item: itemIndex } };
}

function concurrencyFor(context: IExecuteFunctions, operation: OperationModule): number {
	if (!operation.waits) return 1;
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const value = Number(options.maxConcurrency ?? WAIT_DEFAULTS.maxConcurrency);
	return Number.isFinite(value) && value >= 1 ? Math.floor(value) : 1;
}

/**
 * Runs the chosen operation for every input item. Items may overlap in time (operations that wait),
 * but each item's output lands in its own slot, so the output follows input order and pairing.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = resources[resource]?.[operationName];
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of "${resource}" is not supported`);
	}
	const outputs: INodeExecutionData[][] = new Array(items.length);
	await forEachLimited(items.length, concurrencyFor(this, operation), async (itemIndex) => {
		try {
			const produced = await operation.execute.call(this, itemIndex);
			outputs[itemIndex] = produced.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
		} catch (error) {
			if (!this.continueOnFail()) {
				// Both constructors hand back an error of their own class unchanged; anything else is wrapped.
				if (error instanceof NodeApiError) throw new NodeApiError(this.getNode(), error as unknown as JsonObject, { itemIndex });
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex });
			}
			outputs[itemIndex] = [errorItem(error, itemIndex)];
		}
	});
	const session = await openedSession(this);
	if (session?.retries.length) {
		const reasons = [...new Set(session.retries.map((retry) => retry.reason))].join(', ');
		this.addExecutionHints?.({
			message: `${session.retries.length} request(s) were retried after ${reasons}. All retries are in the n8n log.`,
			location: 'outputPane',
		});
	}
	return [outputs.flat()];
}
