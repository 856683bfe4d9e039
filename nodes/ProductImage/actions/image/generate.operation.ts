import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GenerationRequest } from '../../helpers/generationRequest';
import { generationBody, readGenerationRequest } from '../../helpers/generationRequest';
import { submitGeneration } from '../../helpers/submitGeneration';
import {
	aPlusGenerationOptions,
	extraBodyFieldsOption,
	generatedItemOptions,
	generationProperties,
	maxGenerationsOption,
	submitTimeoutOption,
} from './generation.descriptions';
import { checkGenerationCount } from '../../helpers/generationGuard';
import { generatedItemJson } from '../../helpers/generatedItems';
import { optionsCollection } from '../common.descriptions';

const properties: INodeProperties[] = [
	...generationProperties,
	optionsCollection([
		...aPlusGenerationOptions,
		extraBodyFieldsOption,
		...generatedItemOptions,
		maxGenerationsOption,
		submitTimeoutOption,
	]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['generate'] } },
	properties,
);

export function readParameters(this: IExecuteFunctions, itemIndex: number): GenerationRequest {
	return readGenerationRequest(this, itemIndex);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	request: GenerationRequest,
): Promise<INodeExecutionData[]> {
	const body = await generationBody(this, itemIndex, request);
	const submission = await submitGeneration(this, itemIndex, body, request.submitTimeoutMs);
	return [{ json: generatedItemJson(request, submission as IDataObject) }];
}

/** The spending guard, checked once every item's parameters are read. */
export function checkRun(this: IExecuteFunctions, ready: number): void {
	checkGenerationCount(this, ready);
}
