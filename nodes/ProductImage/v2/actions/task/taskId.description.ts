import type { INodeProperties } from 'n8n-workflow';
import { STORED } from '../../../descriptions/common.descriptions';

/** The Task ID field; it names each operation with its resource, as every other text does. */
export const taskIdProperty: INodeProperties = {
	displayName: 'Task ID',
	...STORED.taskId,
	description:
		"The task ID that 'Image → Submit Generation (No Wait)' outputs, or that 'Image → Generate and Wait' names when it stops before the task finishes. A task URL or a dragged task item works too.",
};
