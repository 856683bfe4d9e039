import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { hintFitting } from '../../helpers/fitting';
import { collectTask, readWaitSettings } from '../../helpers/waitForTask';
import {
	optionsCollection,
	waitOptionsV1,
	waitOptions,
} from '../../descriptions/common.descriptions';
import { outputProperties, TASK_IMAGE_OUTPUT } from '../../descriptions/output.descriptions';
import { inCurrentVersion, inVersion1 } from '../../descriptions/versions';
import { shapeOutput } from '../../helpers/outputFields';
import { readTaskId, taskIdProperties } from './taskId.description';

const properties: INodeProperties[] = [
	...taskIdProperties,
	...outputProperties(TASK_IMAGE_OUTPUT, 'each image item'),
	...inVersion1([optionsCollection(waitOptionsV1)]),
	...inCurrentVersion([optionsCollection(waitOptions(true))]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['task'], operation: ['wait'] } },
	properties,
);

export const runsConcurrently = true;

interface Parameters {
	taskId: string;
	settings: ReturnType<typeof readWaitSettings>;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	return { taskId: readTaskId(this, itemIndex), settings: readWaitSettings(this, itemIndex) };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ taskId, settings }: Parameters,
): Promise<INodeExecutionData[]> {
	const items = await collectTask(this, itemIndex, taskId, settings);
	return shapeOutput(this, itemIndex, items, TASK_IMAGE_OUTPUT);
}

/** Images that still need fitting to their A+ module: one hint says how. */
export function afterRun(this: IExecuteFunctions, output: INodeExecutionData[]): void {
	hintFitting(this, output);
}
