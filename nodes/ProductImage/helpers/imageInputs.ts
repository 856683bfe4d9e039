import type { IExecuteFunctions } from 'n8n-workflow';

import { readImageAddresses } from './imageAddresses';
import { isHttpAddress, splitFieldNames } from './imageUrls';
import { assertBinaryField } from './binaryInput';
import { uploadBinaryField } from './upload';
import { parameterError } from './validate';

export const IMAGE_URLS = 'Image URLs';
export const INPUT_BINARY_FIELDS = 'Input Binary Fields';

export interface ImageCountLimits {
	min?: number;
	max?: number;
}

/** The image parameters of an item, checked but not yet uploaded. */
export interface ImageInputs {
	urls: string[];
	binaryFields: string[];
	count: number;
}

/**
 * Reads and checks `imageUrls` and `inputBinaryFields` (schemes, counts, fields present) without
 * sending anything, so every parameter error comes before the first request.
 */
export function readImageInputs(
	context: IExecuteFunctions,
	itemIndex: number,
	limits: ImageCountLimits = {},
): ImageInputs {
	const reading = readImageAddresses(
		context.getNodeParameter('imageUrls', itemIndex, ''),
		context.getNode().parameters.imageUrls,
	);
	if (!reading.ok) {
		throw parameterError(
			context,
			itemIndex,
			IMAGE_URLS,
			reading.problem,
			`${reading.hint} No request was sent.`,
		);
	}
	const urls = reading.addresses;
	const invalid = urls.find((url) => !isHttpAddress(url));
	if (invalid !== undefined) {
		throw parameterError(
			context,
			itemIndex,
			IMAGE_URLS,
			`"${invalid}" is not an http(s) address`,
			`${IMAGE_URLS} takes addresses that start with https:// (or http://), or a store item's images field dragged from the input panel. No request was sent.`,
		);
	}
	const binaryFields = splitFieldNames(
		context.getNodeParameter('inputBinaryFields', itemIndex, ''),
	);
	const count = urls.length + binaryFields.length;
	const both = `${IMAGE_URLS} and ${INPUT_BINARY_FIELDS}`;
	if (limits.min !== undefined && count < limits.min) {
		throw parameterError(
			context,
			itemIndex,
			both,
			`at least ${limits.min} image is needed, ${count} given`,
			'Enter image addresses, or name the binary fields of the input item that hold the product photos.',
		);
	}
	if (limits.max !== undefined && count > limits.max) {
		throw parameterError(
			context,
			itemIndex,
			both,
			`at most ${limits.max} images are allowed, ${count} given`,
		);
	}
	for (const field of binaryFields)
		assertBinaryField(context, itemIndex, field, INPUT_BINARY_FIELDS);
	return { urls, binaryFields, count };
}

/** The `image_urls` of a request: the addresses given, then one uploaded address per binary field. */
export async function resolveImageUrls(
	context: IExecuteFunctions,
	itemIndex: number,
	inputs: ImageInputs,
): Promise<string[]> {
	const uploaded: string[] = [];
	for (const field of inputs.binaryFields) {
		uploaded.push((await uploadBinaryField(context, itemIndex, field, INPUT_BINARY_FIELDS)).url);
	}
	return [...inputs.urls, ...uploaded];
}
