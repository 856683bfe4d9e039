import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forOperation } from '../../../descriptions/common.descriptions';
import type { GenerationRequest } from '../../../helpers/generation';
import { submitGeneration } from '../../../helpers/generation';
import {
	generationOptions,
	generationProperties,
} from '../../descriptions/generation.descriptions';
import { submitsInParallelOption } from '../../descriptions/options.descriptions';
import { generatedItemJson } from './readGeneration';

export { checkRun, readGeneration as readParameters } from './readGeneration';
export { hintInputFieldsAside as afterRun } from '../../../helpers/parameters';
export { includeOtherFieldsOption as inputFieldsOption } from '../../descriptions/options.descriptions';

export const description = forOperation('image', 'generate', [
	...generationProperties,
	...generationOptions(false),
]);

/** Items in Parallel, one at a time unless set (each item waits only for its submit's answer). */
export const runsConcurrently = true;
export const concurrencyOption = submitsInParallelOption;

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	request: GenerationRequest,
): Promise<INodeExecutionData[]> {
	const submission = await submitGeneration(this, itemIndex, request);
	return [{ json: generatedItemJson(request, submission as IDataObject) }];
}
