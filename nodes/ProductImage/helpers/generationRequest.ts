import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';
import { z } from 'zod';

import type { ImageInputs } from './imageInputs';
import { IMAGE_URLS, INPUT_BINARY_FIELDS, readImageInputs, resolveImageUrls } from './imageInputs';
import { readChoice } from '../actions/choices';
import { GENERATION_SOURCE } from '../actions/image/generation.descriptions';
import { nodeVersion } from '../actions/versions';
import type { ModuleSource, ModuleTarget } from './aPlusModuleSource';
import { readModuleSource } from './aPlusModuleSource';
import { readSubmitTimeoutMs } from './submitGeneration';
import { parameterError, validateParameter } from './validate';

const sizeSchema = z
	.string()
	.trim()
	.regex(
		/^[1-9]\d{0,4}:[1-9]\d{0,4}$/,
		'must be an aspect ratio <width>:<height>, such as 1:1 or 16:9',
	);

const resolutionSchema = z
	.string()
	.trim()
	.min(1, 'must not be empty; the service shows labels such as 1k')
	.regex(/^[0-9a-z]+$/i, 'must be a label such as 1k or 2k');

function optionalText(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
): string | undefined {
	const value = context.getNodeParameter(name, itemIndex, '');
	const text = typeof value === 'string' ? value.trim() : String(value ?? '').trim();
	return text === '' ? undefined : text;
}

function readExtraBodyFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const raw = options.extraBodyFields;
	if (raw === undefined || raw === '' || raw === null) return {};
	const parsed =
		typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: undefined }) : raw;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw parameterError(
			context,
			itemIndex,
			'Extra Body Fields',
			'must be a JSON object, such as {"plan_prompt": "...", "series_style_guide": "..."}',
		);
	}
	return parsed as IDataObject;
}

/** A generation's parameters, read and checked; the input binaries are not uploaded yet. */
export interface GenerationRequest {
	fields: IDataObject;
	extra: IDataObject;
	images: ImageInputs;
	submitTimeoutMs: number;
	/** The A+ module the images are for, when the request came from a module item. */
	target?: ModuleTarget;
	/** The input item's fields, for Include Other Input Fields. */
	inputFields?: IDataObject;
	/** File Name option: the base name of each image file. */
	fileName?: string;
}

function readGenerationSource(
	context: IExecuteFunctions,
	itemIndex: number,
): ModuleSource | undefined {
	if (nodeVersion(context) < 2) return undefined;
	const source = context.getNodeParameter('generationSource', itemIndex, GENERATION_SOURCE.define);
	return source === GENERATION_SOURCE.module ? readModuleSource(context, itemIndex) : undefined;
}

/** Version 2's lists hold the value, or Other and a typed one; version 1 stores the text. */
function readListOrText(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback: string,
): unknown {
	return nodeVersion(context) < 2
		? context.getNodeParameter(name, itemIndex, fallback)
		: readChoice(context, name, itemIndex, fallback);
}

function asText(value: unknown): string | undefined {
	const text = typeof value === 'string' ? value.trim() : String(value ?? '').trim();
	return text === '' ? undefined : text;
}

/** Reads and checks every parameter of a generation without sending anything. */
export function readGenerationRequest(
	context: IExecuteFunctions,
	itemIndex: number,
): GenerationRequest {
	const fromModule = readGenerationSource(context, itemIndex);
	const prompt = fromModule ? fromModule.prompt : optionalText(context, 'prompt', itemIndex);
	const size = validateParameter(
		context,
		itemIndex,
		'Size',
		sizeSchema,
		fromModule ? fromModule.size : readListOrText(context, 'size', itemIndex, '1:1'),
	);
	const resolution = validateParameter(
		context,
		itemIndex,
		'Resolution',
		resolutionSchema,
		fromModule ? fromModule.resolution : readListOrText(context, 'resolution', itemIndex, '1k'),
	);
	const extra = readExtraBodyFields(context, itemIndex);
	const submitTimeoutMs = readSubmitTimeoutMs(context, itemIndex);
	let images = readImageInputs(context, itemIndex);
	if (images.count === 0 && fromModule?.imageUrls.length) {
		images = { urls: fromModule.imageUrls, binaryFields: [], count: fromModule.imageUrls.length };
	}
	if (!prompt && images.count === 0) {
		throw parameterError(
			context,
			itemIndex,
			`Prompt, ${IMAGE_URLS} or ${INPUT_BINARY_FIELDS}`,
			'a generation needs a prompt or at least one source image',
		);
	}
	const productInfo: IDataObject = {};
	const name = optionalText(context, 'productName', itemIndex);
	const sellingPoints = optionalText(context, 'sellingPoints', itemIndex);
	const platform =
		asText(readListOrText(context, 'platform', itemIndex, '')) ?? fromModule?.platform;
	if (name) productInfo.name = name;
	if (sellingPoints) productInfo.sellingPoints = sellingPoints;
	if (platform) productInfo.platform = platform;
	// The spec shows `zh-cn` and `1k`: codes typed as `en-US` or `1K` are sent in that form.
	const outputLanguage = (
		asText(readListOrText(context, 'outputLanguage', itemIndex, '')) ?? fromModule?.language
	)?.toLowerCase();

	const fields: IDataObject = { size, resolution: resolution.toLowerCase() };
	if (prompt) fields.prompt = prompt;
	if (Object.keys(productInfo).length) fields.product_info = productInfo;
	if (outputLanguage) fields.output_language = outputLanguage;
	if (fromModule) {
		fields.plan_prompt = fromModule.prompt;
		if (fromModule.styleGuide) fields.series_style_guide = fromModule.styleGuide;
	}
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	for (const [option, field] of [
		['planPrompt', 'plan_prompt'],
		['seriesStyleGuide', 'series_style_guide'],
	]) {
		const text = typeof options[option] === 'string' ? (options[option] as string).trim() : '';
		if (text) fields[field] = text;
	}
	const request: GenerationRequest = { fields, extra, images, submitTimeoutMs };
	if (fromModule) request.target = fromModule.target;
	if (options.includeOtherFields === true)
		request.inputFields = context.getInputData()[itemIndex]?.json ?? {};
	const fileName = asText(options.fileName);
	if (fileName) request.fileName = fileName;
	return request;
}

/** The submit body: uploads the input binaries, then adds their addresses to the image URLs. */
export async function generationBody(
	context: IExecuteFunctions,
	itemIndex: number,
	request: GenerationRequest,
): Promise<IDataObject> {
	const imageUrls = await resolveImageUrls(context, itemIndex, request.images);
	const body: IDataObject = { ...request.fields };
	if (imageUrls.length) body.image_urls = imageUrls;
	return { ...body, ...request.extra };
}
