import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { buildGenerationBody } from '../../helpers/generationRequest';
import { submitGeneration } from '../../helpers/submitGeneration';
import { extraBodyFieldsOption, generationProperties, submitTimeoutOption } from './generation.descriptions';
import { optionsCollection } from '../common.descriptions';

const properties: INodeProperties[] = [
	...generationProperties,
	optionsCollection([extraBodyFieldsOption, submitTimeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['generate'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const body = await buildGenerationBody(this, itemIndex);
	const submission = await submitGeneration(this, itemIndex, body);
	return [{ json: submission as IDataObject }];
}
