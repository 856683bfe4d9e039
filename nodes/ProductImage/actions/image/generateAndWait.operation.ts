import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { buildGenerationBody } from '../../helpers/generationRequest';
import { taskResultItems } from '../../helpers/resultImages';
import { submitGeneration } from '../../helpers/submitGeneration';
import { waitForTask } from '../../helpers/waitForTask';
import { readWaitSettings } from '../../helpers/waitSettings';
import { optionsCollection, waitOptions } from '../common.descriptions';
import { extraBodyFieldsOption, generationProperties, submitTimeoutOption } from './generation.descriptions';

const properties: INodeProperties[] = [
	...generationProperties,
	optionsCollection([...waitOptions, extraBodyFieldsOption, submitTimeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['generateAndWait'] } },
	properties,
);

export const waits = true;

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const settings = readWaitSettings(this, itemIndex);
	const body = await buildGenerationBody(this, itemIndex);
	const { task_id: taskId } = await submitGeneration(this, itemIndex, body);
	const task = await waitForTask(this, itemIndex, taskId, settings);
	return await taskResultItems(this, itemIndex, taskId, task, settings);
}
