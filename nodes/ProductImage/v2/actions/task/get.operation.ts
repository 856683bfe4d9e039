import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forOperation } from '../../../descriptions/common.descriptions';
import { queryTask, readTaskId } from '../../../helpers/task';
import { outputProperties, TASK_OUTPUT } from '../../descriptions/output.descriptions';
import { shapeOutput } from '../../reading';
import { taskIdProperty } from './taskId.description';

export const description = forOperation('task', 'get', [
	taskIdProperty,
	...outputProperties(TASK_OUTPUT, 'the task'),
]);

/** The task's image URLs as one list, for Simplified and Selected Fields. */
function imageUrls(task: IDataObject): IDataObject {
	const images = (task.result as { images?: Array<{ url?: string }> } | undefined)?.images;
	return Array.isArray(images) ? { image_urls: images.map((image) => image.url ?? null) } : {};
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): string {
	return readTaskId(this, itemIndex, taskIdProperty.displayName);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
): Promise<INodeExecutionData[]> {
	const { task } = await queryTask(this, itemIndex, taskId);
	return shapeOutput(this, itemIndex, [{ json: task as IDataObject }], TASK_OUTPUT, imageUrls);
}
