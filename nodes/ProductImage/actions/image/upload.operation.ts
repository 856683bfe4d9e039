import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertBinaryField, uploadBinaryField } from '../../helpers/imageInputs';
import { labelOf, parameterOrDefault, propertyIn } from '../../helpers/parameters';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the input binary field holding the image to upload',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['upload'] } },
	properties,
);

const FIELD = 'binaryPropertyName';

export function readParameters(this: IExecuteFunctions, itemIndex: number): string {
	const property = propertyIn(this, properties, FIELD);
	const field = String(parameterOrDefault(this, itemIndex, property)).trim();
	assertBinaryField(this, itemIndex, field, property.displayName);
	return field;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	field: string,
): Promise<INodeExecutionData[]> {
	const uploaded = await uploadBinaryField(
		this,
		itemIndex,
		field,
		labelOf(this, properties, FIELD),
	);
	return [{ json: uploaded as IDataObject }];
}
