import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { ImageOutputSettings } from './resultImages';
import { taskResultItems } from './resultImages';
import type { WaitSettings } from './waitForTask';
import { waitForTask } from './waitForTask';

/**
 * Waits for a task and hands on its images, or where it stood when the wait ran out of time.
 * `submittedAt`: when this run's submit of the task was answered, if this run submitted it.
 */
export async function collectTask(
	context: IExecuteFunctions,
	itemIndex: number,
	taskId: string,
	settings: WaitSettings & ImageOutputSettings,
	submittedAt?: number,
): Promise<INodeExecutionData[]> {
	const outcome = await waitForTask(context, itemIndex, taskId, settings, submittedAt);
	if (outcome.finished)
		return await taskResultItems(context, itemIndex, taskId, outcome.task, settings);
	return [
		{
			json: {
				task_id: taskId,
				status: outcome.status ?? null,
				timed_out: true,
				waited_seconds: outcome.waitedSeconds,
			},
		},
	];
}
