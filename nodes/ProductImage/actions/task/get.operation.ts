import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { getTask } from '../../helpers/waitForTask';
import { taskIdProperty, readTaskId } from './taskId.description';

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['get'] } },
	[taskIdProperty] as INodeProperties[],
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { task } = await getTask(this, itemIndex, readTaskId(this, itemIndex));
	return [{ json: task as IDataObject }];
}
