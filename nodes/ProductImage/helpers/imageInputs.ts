import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { imageUrlsProperty, INPUT_BINARY_FIELDS } from '../descriptions/common.descriptions';
import { ENDPOINTS, requestResult } from '../transport/request';
import { isHttpUrl } from '../transport/send';
import type { FoundBinaryField } from './binaryField';
import { binaryFieldName, binaryFieldsOfItem, findBinaryField } from './binaryField';
import { readImageAddresses } from './imageAddresses';
import { parameterError, parameterOrDefault } from './parameters';
import type { UploadedImage } from './schemas';
import { uploadedImageSchema } from './schemas';

interface InputFile {
	blob: Blob;
	fileName: string;
	mimeType: string;
}

/** The error lists the files the item carries, wherever they are. */
function assertBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): FoundBinaryField {
	const found = findBinaryField(context, itemIndex, fieldName);
	if (found) return found;
	const available = binaryFieldsOfItem(context, itemIndex);
	throw new NodeOperationError(
		context.getNode(),
		`'${parameter}': the input item has no binary field '${fieldName}'`,
		{
			itemIndex,
			description: available.length
				? `Binary fields on this item: ${available.join(', ')}. Enter one of them.`
				: 'This item carries no files. Put a node that outputs files (HTTP Request, Read/Write Files, a store node) before this one.',
		},
	);
}

/**
 * Stored binaries are read as a stream by id, in-memory ones through the buffer helper. FormData
 * takes a Blob, which copies the bytes once more: the upload holds about the file's size in memory
 * (filesystem mode) or three times it (memory mode); `npm run bench` measures both.
 */
async function readInputFile(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): Promise<InputFile> {
	const { reference, binary } = assertBinaryField(context, itemIndex, fieldName, parameter);
	const parts: Uint8Array[] = [];
	if (binary.id) {
		const stream = await context.helpers.getBinaryStream(binary.id);
		for await (const chunk of stream as AsyncIterable<Uint8Array>) parts.push(chunk);
	} else {
		parts.push(await context.helpers.getBinaryDataBuffer(itemIndex, reference));
	}
	const mimeType = binary.mimeType || 'application/octet-stream';
	const extension = binary.fileExtension ? `.${binary.fileExtension}` : '';
	return {
		blob: new Blob(parts, { type: mimeType }),
		fileName: binary.fileName || `${binaryFieldName(fieldName)}${extension}`,
		mimeType,
	};
}

/** Checked to be on the item before anything is sent. */
export function readUploadField(
	context: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
): string {
	const field = String(parameterOrDefault(context, itemIndex, property)).trim();
	assertBinaryField(context, itemIndex, field, property.displayName);
	return field;
}

export async function uploadBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): Promise<UploadedImage> {
	const file = await readInputFile(context, itemIndex, fieldName, parameter);
	const form = new FormData();
	form.append('file', file.blob, file.fileName);
	const { result } = await requestResult(
		context,
		{
			kind: 'upload',
			method: 'POST',
			path: ENDPOINTS.upload,
			body: form,
			itemIndex,
			wording: { fields: { file: parameter } },
		},
		uploadedImageSchema,
	);
	return result;
}

/** `data, data_1` as `['data', 'data_1']`: the names of Input Binary Fields, or of A+ modules. */
export function splitCommaSeparated(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name.length > 0);
}

export const IMAGE_URLS = imageUrlsProperty.displayName;

/** The addresses an image parameter holds; what cannot be read is the parameter's error. */
export function imageAddressesOf(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	raw: unknown,
): string[] {
	const reading = readImageAddresses(value, raw);
	if (reading.ok) return reading.addresses;
	throw parameterError(
		context,
		itemIndex,
		parameter,
		reading.problem,
		`${reading.hint} No request was sent.`,
	);
}

/** The image fields a version's panel shows for the item, and what to do when too few came. */
export interface ShownImageFields {
	labels: string[];
	tooFewAdvice: string;
}

/** As a panel without an 'Images From' choice (or with Both chosen) shows them. */
export const BOTH_IMAGE_FIELDS: ShownImageFields = {
	labels: [IMAGE_URLS, INPUT_BINARY_FIELDS],
	tooFewAdvice:
		'Enter image URLs, or name the binary fields of the input item that hold the product photos.',
};

export interface ImageCountLimits {
	min?: number;
	max?: number;
}

export interface ImageInputs {
	urls: string[];
	binaryFields: string[];
	count: number;
}

/** Checked without sending anything, so every parameter error comes before the first request. */
export function readImageInputs(
	context: IExecuteFunctions,
	itemIndex: number,
	shown: ShownImageFields,
	limits: ImageCountLimits = {},
): ImageInputs {
	const urls = imageAddressesOf(
		context,
		itemIndex,
		IMAGE_URLS,
		context.getNodeParameter('imageUrls', itemIndex, ''),
		context.getNode().parameters.imageUrls,
	);
	const invalid = urls.find((url) => !isHttpUrl(url));
	if (invalid !== undefined) {
		throw parameterError(
			context,
			itemIndex,
			IMAGE_URLS,
			`"${invalid}" is not an http(s) URL`,
			`'${IMAGE_URLS}' takes URLs that start with https:// (or http://), or a store item's 'images' field dragged from the input panel. No request was sent.`,
		);
	}
	const binaryFields = splitCommaSeparated(
		context.getNodeParameter('inputBinaryFields', itemIndex, ''),
	);
	const count = urls.length + binaryFields.length;
	const both = shown.labels.map((name) => `'${name}'`).join(' and ');
	if (limits.min !== undefined && count < limits.min) {
		throw parameterError(
			context,
			itemIndex,
			both,
			`at least ${limits.min} image is needed, ${count} given`,
			shown.tooFewAdvice,
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
