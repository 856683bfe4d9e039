import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GenerationRequest } from '../../helpers/generationRequest';
import { generationBody, readGenerationRequest } from '../../helpers/generationRequest';
import { collectTask } from '../../helpers/collectTask';
import { submitGeneration } from '../../helpers/submitGeneration';
import { readWaitSettings } from '../../helpers/waitSettings';
import { optionsCollection, waitOptions } from '../common.descriptions';
import { aPlusGenerationOptions, extraBodyFieldsOption, generationProperties, submitTimeoutOption } from './generation.descriptions';

const properties: INodeProperties[] = [
	...generationProperties,
	optionsCollection([...waitOptions, ...aPlusGenerationOptions, extraBodyFieldsOption, submitTimeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['generateAndWait'] } },
	properties,
);

export const runsConcurrently = true;

interface Parameters {
	request: GenerationRequest;
	settings: ReturnType<typeof readWaitSettings>;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	return { settings: readWaitSettings(this, itemIndex), request: readGenerationRequest(this, itemIndex) };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ request, settings }: Parameters,
): Promise<INodeExecutionData[]> {
	const body = await generationBody(this, itemIndex, request);
	const { task_id: taskId } = await submitGeneration(this, itemIndex, body, request.submitTimeoutMs);
	return await collectTask(this, itemIndex, taskId, settings, Date.now());
}
