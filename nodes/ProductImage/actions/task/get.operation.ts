import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { queryTask } from '../../helpers/waitForTask';
import { taskIdProperty, readTaskId } from './taskId.description';

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['get'] } },
	[taskIdProperty] as INodeProperties[],
);

export function readParameters(this: IExecuteFunctions, itemIndex: number): string {
	return readTaskId(this, itemIndex);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
): Promise<INodeExecutionData[]> {
	const { task } = await queryTask(this, itemIndex, taskId);
	return [{ json: task as IDataObject }];
}
