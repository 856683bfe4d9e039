import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forOperation, optionsCollection } from '../../../descriptions/common.descriptions';
import { hintFitting, hintHandOver } from '../../../helpers/output';
import { readTaskId } from '../../../helpers/task';
import { collectTask, readWaitSettings } from '../../../helpers/waitForTask';
import { waitOptions } from '../../descriptions/options.descriptions';
import { outputProperties, TASK_IMAGE_OUTPUT } from '../../descriptions/output.descriptions';
import { shapeOutput, WAIT_OPTIONS } from '../../reading';
import { taskIdProperty } from './taskId.description';

export const description = forOperation('task', 'wait', [
	taskIdProperty,
	...outputProperties(TASK_IMAGE_OUTPUT, 'each image item'),
	optionsCollection(waitOptions(true)),
]);

export const runsConcurrently = true;

export function readParameters(this: IExecuteFunctions, itemIndex: number) {
	return {
		taskId: readTaskId(this, itemIndex, taskIdProperty.displayName),
		settings: readWaitSettings(this, itemIndex, WAIT_OPTIONS),
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ taskId, settings }: ReturnType<typeof readParameters>,
): Promise<INodeExecutionData[]> {
	const items = await collectTask(this, itemIndex, taskId, settings);
	return shapeOutput(this, itemIndex, items, TASK_IMAGE_OUTPUT);
}

/** Which field goes to the store, and images that still need fitting: one hint each. */
export function afterRun(this: IExecuteFunctions, output: INodeExecutionData[]): void {
	hintHandOver(this, output);
	hintFitting(this, output);
}
