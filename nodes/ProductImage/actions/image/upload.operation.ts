import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { uploadBinaryField } from '../../helpers/upload';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the image to upload',
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['upload'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const field = String(this.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	const uploaded = await uploadBinaryField(this, itemIndex, field, 'Input Binary Field');
	return [{ json: uploaded as IDataObject }];
}
