import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { taskResultItems } from '../../helpers/resultImages';
import { waitForTask } from '../../helpers/waitForTask';
import { readWaitSettings } from '../../helpers/waitSettings';
import { optionsCollection, waitOptions } from '../common.descriptions';
import { readTaskId, taskIdProperty } from './taskId.description';

const properties: INodeProperties[] = [
	taskIdProperty,
	optionsCollection(waitOptions),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['wait'] } },
	properties,
);

export const waits = true;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const taskId = readTaskId(this, itemIndex);
	const settings = readWaitSettings(this, itemIndex);
	const task = await waitForTask(this, itemIndex, taskId, settings);
	return await taskResultItems(this, itemIndex, taskId, task, settings);
}
