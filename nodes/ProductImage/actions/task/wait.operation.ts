import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { hintFitting } from '../../helpers/fitting';
import { collectTask, readWaitSettings } from '../../helpers/waitForTask';
import { optionsCollection, waitOptions } from '../../descriptions/common.descriptions';
import { readTaskId, taskIdProperty } from './taskId.description';

const properties: INodeProperties[] = [taskIdProperty, optionsCollection(waitOptions)];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['wait'] } },
	properties,
);

export const runsConcurrently = true;

interface Parameters {
	taskId: string;
	settings: ReturnType<typeof readWaitSettings>;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	return { taskId: readTaskId(this, itemIndex), settings: readWaitSettings(this, itemIndex) };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ taskId, settings }: Parameters,
): Promise<INodeExecutionData[]> {
	return await collectTask(this, itemIndex, taskId, settings);
}

/** Images that still need fitting to their A+ module: one hint says how. */
export function afterRun(this: IExecuteFunctions, output: INodeExecutionData[]): void {
	hintFitting(this, output);
}
