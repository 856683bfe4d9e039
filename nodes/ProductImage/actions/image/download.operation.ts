import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { downloadToBinary } from '../../helpers/downloadBinary';
import { isHttpAddress } from '../../helpers/imageUrls';
import { validateParameter } from '../../helpers/validate';
import { binaryPropertyOption, optionsCollection } from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'https://…/v1/open/assets/…',
		description: 'Address of an image, such as the URL of a generated image (valid 3 days)',
	},
	optionsCollection([
			binaryPropertyOption,
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				description: 'Name of the output file. Empty: taken from the address.',
			},
		]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['download'] } },
	properties,
);

const addressSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(isHttpAddress, 'must be an http(s) address');

interface Parameters {
	url: string;
	field: string;
	fileName?: string;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	const url = validateParameter(this, itemIndex, 'URL', addressSchema, this.getNodeParameter('url', itemIndex));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const field = validateParameter(
		this,
		itemIndex,
		'Put Output File in Field',
		z.string().trim().min(1, 'must name a binary field, such as data'),
		options.binaryPropertyName ?? 'data',
	);
	const fileName = typeof options.fileName === 'string' && options.fileName.trim() ? options.fileName.trim() : undefined;
	return { url, field, fileName };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ url, field, fileName }: Parameters,
): Promise<INodeExecutionData[]> {
	const binary = await downloadToBinary(this, itemIndex, url, { fileName });
	return [
		{
			json: { url, fileName: binary.fileName, mimeType: binary.mimeType, fileSize: binary.fileSize },
			binary: { [field]: binary },
		},
	];
}
