import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { downloadToBinary } from '../../helpers/download';
import { readImageAddresses } from '../../helpers/imageAddresses';
import { isHttpUrl } from '../../transport';
import {
	labelOf,
	optionOrDefault,
	parameterError,
	readOptions,
	validateParameter,
} from '../../helpers/parameters';
import {
	binaryPropertyOption,
	optionsCollection,
	outputFileFieldOption,
} from '../../descriptions/common.descriptions';
import { inCurrentVersion, inVersion1 } from '../../descriptions/versions';

const fileNameOption: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: '',
	placeholder: 'e.g. steel-bottle-front',
	description: 'Name of the output file. Empty: taken from the URL.',
};

const properties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/image.png',
		description:
			"URL of one image: a generated image's URL (valid 3 days), any image URL, or one image of a store node dragged here",
	},
	...inVersion1([optionsCollection([binaryPropertyOption, fileNameOption])]),
	// The current version says the default of its file field, as every other option does.
	...inCurrentVersion([optionsCollection([outputFileFieldOption, fileNameOption])]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['image'], operation: ['download'] } },
	properties,
);

const URL_LABEL = labelOf(undefined, properties, 'url');

const addressSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(isHttpUrl, 'must be an http(s) URL');

interface Parameters {
	url: string;
	field: string;
	fileName?: string;
}

/**
 * A dragged store image arrives as an object (`{{ $json.image }}`) or a list of one: its address
 * is read as Image URLs reads it. A plain string goes to the address check as typed.
 */
function oneAddress(context: IExecuteFunctions, itemIndex: number, value: unknown): unknown {
	if (typeof value === 'string' && !/^\s*[[{]/.test(value)) return value;
	const reading = readImageAddresses(value, context.getNode().parameters.url);
	if (!reading.ok)
		throw parameterError(
			context,
			itemIndex,
			URL_LABEL,
			reading.problem,
			`${reading.hint} No request was sent.`,
		);
	if (reading.addresses.length > 1) {
		throw parameterError(
			context,
			itemIndex,
			URL_LABEL,
			`${reading.addresses.length} image URLs given; Download takes one per item`,
			'Put a Split Out node on the images field before this node, so that each image is an item of its own, or drag a single image. No request was sent.',
		);
	}
	return reading.addresses[0] ?? '';
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	const url = validateParameter(
		this,
		itemIndex,
		URL_LABEL,
		addressSchema,
		oneAddress(this, itemIndex, this.getNodeParameter('url', itemIndex)),
	);
	const options = readOptions(this, itemIndex);
	const field = validateParameter(
		this,
		itemIndex,
		binaryPropertyOption.displayName,
		z.string().trim().min(1, 'must name a binary field, such as data'),
		optionOrDefault(options, binaryPropertyOption),
	);
	const fileName =
		typeof options.fileName === 'string' && options.fileName.trim()
			? options.fileName.trim()
			: undefined;
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
			json: {
				url,
				fileName: binary.fileName,
				mimeType: binary.mimeType,
				fileSize: binary.fileSize,
			},
			binary: { [field]: binary },
		},
	];
}
