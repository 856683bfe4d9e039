import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GenerationRequest } from '../../../helpers/generation';
import {
	checkGenerationCount,
	generatedItemJson,
	readGenerationRequest,
	submitGeneration,
} from '../../../helpers/generation';
import {
	generationOptions,
	generationProperties,
} from '../../descriptions/generation.descriptions';
import { hintInputFieldsAside } from '../../../helpers/inputFields';
import { generationPanel, hintModuleItemsDefinedBelow } from './generationPanel';

const properties: INodeProperties[] = [...generationProperties, ...generationOptions(false)];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['generate'] } },
	properties,
);

export function readParameters(this: IExecuteFunctions, itemIndex: number): GenerationRequest {
	return readGenerationRequest(this, itemIndex, generationPanel);
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	request: GenerationRequest,
): Promise<INodeExecutionData[]> {
	const submission = await submitGeneration(this, itemIndex, request);
	return [{ json: generatedItemJson(request, submission as IDataObject) }];
}

/**
 * The spending guard, checked once every item's parameters are read, and one hint when the
 * input items are A+ modules the panel does not take the images from.
 */
export function checkRun(this: IExecuteFunctions, ready: number): void {
	checkGenerationCount(this, ready, generationPanel);
	hintModuleItemsDefinedBelow(this);
}

/** Input fields kept under 'input_fields': one hint says which. */
export function afterRun(this: IExecuteFunctions, output: INodeExecutionData[]): void {
	hintInputFieldsAside(this, output);
}
