import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { validateParameter } from '../../helpers/parameters';
import { taskIdStaysInPath } from '../../helpers/task';

export const taskIdProperty: INodeProperties = {
	displayName: 'Task ID',
	name: 'taskId',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. task_abc123',
	description:
		"The task's ID, as Submit Generation (No Wait) outputs it or an error of Generate and Wait names it",
};

const taskIdSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(taskIdStaysInPath, 'must be a task id such as task_abc123 (letters, digits, _ - . :)');

export function readTaskId(context: IExecuteFunctions, itemIndex: number): string {
	return validateParameter(
		context,
		itemIndex,
		'Task ID',
		taskIdSchema,
		context.getNodeParameter('taskId', itemIndex),
	);
}
