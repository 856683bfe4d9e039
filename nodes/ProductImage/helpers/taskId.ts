import type { IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { validateParameter } from './parameters';
import { taskIdStaysInPath } from './task';

const taskIdSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(taskIdStaysInPath, 'must be a task ID such as task_abc123 (letters, digits, _ - . :)');

/** As n8n's guidelines ask: a dragged task item or a pasted task URL too. */
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

/** `label` is what the panel calls it. */
export function readTaskId(context: IExecuteFunctions, itemIndex: number, label: string): string {
	return validateParameter(
		context,
		itemIndex,
		label,
		taskIdSchema,
		bareTaskId(context.getNodeParameter('taskId', itemIndex)),
	);
}
