import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { GenerationRequest } from '../../helpers/generationRequest';
import { generationBody, readGenerationRequest } from '../../helpers/generationRequest';
import { collectTask } from '../../helpers/collectTask';
import { submitGeneration } from '../../helpers/submitGeneration';
import { readWaitSettings } from '../../helpers/waitSettings';
import { nodeVersion } from '../versions';
import { optionsCollection, waitOptions } from '../common.descriptions';
import {
	aPlusGenerationOptions,
	extraBodyFieldsOption,
	fileNameOption,
	generatedItemOptions,
	generationProperties,
	maxGenerationsOption,
	submitTimeoutOption,
} from './generation.descriptions';
import { checkGenerationCount } from '../../helpers/generationGuard';
import { generatedItemJson } from '../../helpers/generatedItems';

const properties: INodeProperties[] = [
	...generationProperties,
	optionsCollection([
		...waitOptions,
		...aPlusGenerationOptions,
		extraBodyFieldsOption,
		fileNameOption,
		...generatedItemOptions,
		maxGenerationsOption,
		submitTimeoutOption,
	]),
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
	return {
		settings: readWaitSettings(this, itemIndex),
		request: readGenerationRequest(this, itemIndex),
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ request, settings }: Parameters,
): Promise<INodeExecutionData[]> {
	const body = await generationBody(this, itemIndex, request);
	const { task_id: taskId } = await submitGeneration(
		this,
		itemIndex,
		body,
		request.submitTimeoutMs,
	);
	const productName = (request.fields.product_info as { name?: string } | undefined)?.name;
	const described =
		nodeVersion(this) >= 2
			? { fileName: request.fileName, target: request.target, productName }
			: undefined;
	const items = await collectTask(this, itemIndex, taskId, { ...settings, described }, Date.now());
	return items.map((item) => ({ ...item, json: generatedItemJson(request, item.json) }));
}

/** The spending guard, checked once every item's parameters are read. */
export function checkRun(this: IExecuteFunctions, ready: number): void {
	checkGenerationCount(this, ready);
}
