import type { IExecuteFunctions } from 'n8n-workflow';

import { isHttpAddress, splitFieldNames, splitImageUrls } from './imageUrls';
import { uploadBinaryField } from './upload';
import { parameterError } from './validate';

export const IMAGE_URLS = 'Image URLs';
export const INPUT_BINARY_FIELDS = 'Input Binary Fields';

export interface ImageCountLimits {
	min?: number;
	max?: number;
}

/**
 * The `image_urls` of a request: the addresses given, then one uploaded address per named binary
 * field. Counts and schemes are checked before anything is uploaded.
 */
export async function collectImageUrls(
	context: IExecuteFunctions,
	itemIndex: number,
	limits: ImageCountLimits = {},
): Promise<string[]> {
	const urls = splitImageUrls(context.getNodeParameter('imageUrls', itemIndex, ''));
	const invalid = urls.find((url) => !isHttpAddress(url));
	if (invalid !== undefined) {
		throw parameterError(context, itemIndex, IMAGE_URLS, `"${invalid}" is not an http(s) address`);
	}
	const fields = splitFieldNames(context.getNodeParameter('inputBinaryFields', itemIndex, ''));
	const total = urls.length + fields.length;
	const both = `${IMAGE_URLS} and ${INPUT_BINARY_FIELDS}`;
	if (limits.min !== undefined && total < limits.min) {
		throw parameterError(
			context,
			itemIndex,
			both,
			`at least ${limits.min} image is needed, ${total} given`,
			'Enter image addresses, or name the binary fields of the input item that hold the product photos.',
		);
	}
	if (limits.max !== undefined && total > limits.max) {
		throw parameterError(context, itemIndex, both, `at most ${limits.max} images are allowed, ${total} given`);
	}
	const item = context.getInputData()[itemIndex];
	const missing = fields.find((field) => !item?.binary?.[field]);
	if (missing !== undefined) {
		const available = Object.keys(item?.binary ?? {});
		throw parameterError(
			context,
			itemIndex,
			INPUT_BINARY_FIELDS,
			`the input item has no binary field "${missing}"`,
			available.length
				? `Binary fields on this item: ${available.join(', ')}.`
				: 'This item carries no binary data.',
		);
	}
	const uploaded: string[] = [];
	for (const field of fields) {
		uploaded.push((await uploadBinaryField(context, itemIndex, field, INPUT_BINARY_FIELDS)).url);
	}
	return [...urls, ...uploaded];
}
