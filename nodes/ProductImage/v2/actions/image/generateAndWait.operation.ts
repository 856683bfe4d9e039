import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forOperation } from '../../../descriptions/common.descriptions';
import type { GenerationRequest } from '../../../helpers/generation';
import { submitGeneration } from '../../../helpers/generation';
import { collectTask, readWaitSettings } from '../../../helpers/waitForTask';
import { hintFitting, hintHandOver } from '../../../helpers/output';
import {
	generationOptions,
	generationProperties,
} from '../../descriptions/generation.descriptions';
import { outputProperties, TASK_IMAGE_OUTPUT } from '../../descriptions/output.descriptions';
import { hintInputFieldsAside } from '../../../helpers/parameters';
import { shapeOutput, WAIT_OPTIONS } from '../../reading';
import { generatedItemJson, LARGER_ADVICE, readGeneration } from './readGeneration';

export { checkRun } from './readGeneration';
export { includeOtherFieldsOption as inputFieldsOption } from '../../descriptions/options.descriptions';

export const description = forOperation('image', 'generateAndWait', [
	...generationProperties,
	...outputProperties(TASK_IMAGE_OUTPUT, 'each image item'),
	...generationOptions(true),
]);

export const runsConcurrently = true;

export function readParameters(this: IExecuteFunctions, itemIndex: number) {
	return {
		settings: readWaitSettings(this, itemIndex, WAIT_OPTIONS),
		request: readGeneration.call(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ request, settings }: ReturnType<typeof readParameters>,
): Promise<INodeExecutionData[]> {
	const { task_id: taskId } = await submitGeneration(this, itemIndex, request);
	const purpose = {
		fileName: request.fileName,
		target: request.target,
		productName: nameForFiles(request),
		largerAdvice: LARGER_ADVICE,
	};
	const items = await collectTask(this, itemIndex, taskId, { ...settings, purpose }, Date.now());
	const generated = items.map((item) => ({ ...item, json: generatedItemJson(request, item.json) }));
	return shapeOutput(this, itemIndex, generated, TASK_IMAGE_OUTPUT);
}

/** Files are named after 'Product Name', else the input item's title or name, carried anyway. */
function nameForFiles(request: GenerationRequest): string | undefined {
	const typed = (request.fields.product_info as { name?: string } | undefined)?.name;
	if (typed) return typed;
	const own = request.inputFields?.title ?? request.inputFields?.name;
	return typeof own === 'string' ? own : undefined;
}

/** Which field goes to the store, images still to fit, input fields under 'input_fields': a hint each. */
export function afterRun(this: IExecuteFunctions, output: INodeExecutionData[]): void {
	hintHandOver(this, output);
	hintFitting(this, output);
	hintInputFieldsAside.call(this, output);
}
