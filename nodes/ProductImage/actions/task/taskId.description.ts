import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { inCurrentVersion, inVersion1 } from '../../descriptions/versions';
import { validateParameter } from '../../helpers/parameters';
import { taskIdStaysInPath } from '../../helpers/task';

const taskIdProperty: INodeProperties = {
	displayName: 'Task ID',
	name: 'taskId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. task_abc123',
	description:
		"The task ID that 'Submit Generation (No Wait)' outputs, or that 'Generate and Wait' names when it stops before the task finishes",
};

/** The current version names each operation with its resource, as every other text does. */
export const taskIdProperties: INodeProperties[] = [
	...inVersion1([taskIdProperty]),
	...inCurrentVersion([
		{
			...taskIdProperty,
			description:
				"The task ID that 'Image → Submit Generation (No Wait)' outputs, or that 'Image → Generate and Wait' names when it stops before the task finishes. A task URL or a dragged task item works too.",
		},
	]),
];

const taskIdSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(taskIdStaysInPath, 'must be a task ID such as task_abc123 (letters, digits, _ - . :)');

/**
 * More than the bare ID is taken, as n8n's guidelines ask: a dragged task item (its `task_id`) or
 * a pasted task URL (its last path segment).
 */
function bareTaskId(value: unknown): unknown {
	if (typeof value === 'object' && value !== null && 'task_id' in value)
		return (value as { task_id: unknown }).task_id;
	if (typeof value !== 'string' || !/^\s*https?:\/\//i.test(value)) return value;
	try {
		return new URL(value.trim()).pathname.split('/').filter(Boolean).pop() ?? value;
	} catch {
		return value;
	}
}

export function readTaskId(context: IExecuteFunctions, itemIndex: number): string {
	return validateParameter(
		context,
		itemIndex,
		taskIdProperty.displayName,
		taskIdSchema,
		bareTaskId(context.getNodeParameter('taskId', itemIndex)),
	);
}
