import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { downloadUrlProperty } from '../descriptions/common.descriptions';
import { isHttpUrl } from '../transport/send';
import { downloadToBinary } from './download';
import { imageAddressesOf } from './imageInputs';
import { optionOrDefault, parameterError, readOptions, validateParameter } from './parameters';

// Image → Download, as both versions run it; each version gives the option of the output field.

const URL_LABEL = downloadUrlProperty.displayName;

const addressSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty')
	.refine(isHttpUrl, 'must be an http(s) URL');

export type DownloadParameters = ReturnType<typeof readDownload>;

/** A dragged store image (an object, or a list of one) is read as Image URLs reads it. */
function oneAddress(context: IExecuteFunctions, itemIndex: number, value: unknown): unknown {
	if (typeof value === 'string' && !/^\s*[[{]/.test(value)) return value;
	const raw = context.getNode().parameters.url;
	const addresses = imageAddressesOf(context, itemIndex, URL_LABEL, value, raw);
	if (addresses.length > 1) {
		throw parameterError(
			context,
			itemIndex,
			URL_LABEL,
			`${addresses.length} image URLs given; Download takes one per item`,
			'Put a Split Out node on the images field before this node, so that each image is an item of its own, or drag a single image. No request was sent.',
		);
	}
	return addresses[0] ?? '';
}

/** Checked before anything is sent. */
export function readDownload(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldOption: INodeProperties,
) {
	const url = validateParameter(
		context,
		itemIndex,
		URL_LABEL,
		addressSchema,
		oneAddress(context, itemIndex, context.getNodeParameter('url', itemIndex)),
	);
	const options = readOptions(context, itemIndex);
	const field = validateParameter(
		context,
		itemIndex,
		fieldOption.displayName,
		z.string().trim().min(1, 'must name a binary field, such as data'),
		optionOrDefault(options, fieldOption),
	);
	const fileName =
		typeof options.fileName === 'string' ? options.fileName.trim() || undefined : undefined;
	return { url, field, fileName };
}

export async function downloadItem(
	this: IExecuteFunctions,
	itemIndex: number,
	{ url, field, fileName }: DownloadParameters,
): Promise<INodeExecutionData[]> {
	const { binary } = await downloadToBinary(this, itemIndex, url, { fileName });
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
