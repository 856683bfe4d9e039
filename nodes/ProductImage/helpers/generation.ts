import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { readField, readListOrText } from '../descriptions/choices';
import {
	includeOtherFieldsOptionV1,
	includeOtherFieldsOption,
} from '../descriptions/common.descriptions';
import {
	GENERATION_SOURCE,
	maxGenerationsOptionV1,
	submitTimeoutOption,
} from '../descriptions/generation.descriptions';
import { isVersion1 } from '../descriptions/versions';
import { ENDPOINTS, requestResult } from '../transport';
import type { ModuleSource, ModuleTarget } from './aPlus';
import { readModuleSource } from './aPlus';
import type { ImageInputs } from './imageInputs';
import { IMAGE_URLS, INPUT_BINARY_FIELDS, readImageInputs, resolveImageUrls } from './imageInputs';
import {
	optionOrDefault,
	parameterError,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from './parameters';
import { runControl } from './runControl';
import { submissionSchema } from './schemas';

const sizeSchema = z
	.string()
	.trim()
	.regex(
		/^[1-9]\d{0,4}:[1-9]\d{0,4}$/,
		'must be an aspect ratio width:height, such as 1:1 or 16:9',
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
	return asText(context.getNodeParameter(name, itemIndex, ''));
}

function readExtraBodyFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = readOptions(context, itemIndex);
	const raw = options.extraBodyFields;
	if (raw === undefined || raw === '' || raw === null) return {};
	const parsed =
		typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: undefined }) : raw;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw parameterError(
			context,
			itemIndex,
			'Extra Body Fields',
			'must be a JSON object',
			'Enter a JSON object, such as {"plan_prompt": "...", "series_style_guide": "..."}, in \'Extra Body Fields\'. No request was sent.',
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
	if (isVersion1(context)) return undefined;
	const source = context.getNodeParameter('generationSource', itemIndex, GENERATION_SOURCE.define);
	return source === GENERATION_SOURCE.module ? readModuleSource(context, itemIndex) : undefined;
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
		fromModule ? fromModule.size : readListOrText(context, 'size', itemIndex),
	);
	const resolution = validateParameter(
		context,
		itemIndex,
		'Resolution',
		resolutionSchema,
		fromModule ? fromModule.resolution : readListOrText(context, 'resolution', itemIndex),
	);
	const extra = readExtraBodyFields(context, itemIndex);
	const submitTimeoutMs = readTimeoutMs(context, itemIndex, submitTimeoutOption);
	let images = readImageInputs(context, itemIndex);
	if (images.count === 0 && fromModule?.imageUrls.length) {
		images = { urls: fromModule.imageUrls, binaryFields: [], count: fromModule.imageUrls.length };
	}
	if (!prompt && images.count === 0) {
		throw parameterError(
			context,
			itemIndex,
			`'Prompt', '${IMAGE_URLS}' or '${INPUT_BINARY_FIELDS}'`,
			'a generation needs a prompt or at least one source image',
		);
	}
	const productInfo: IDataObject = {};
	const name = asText(readField(context, 'productName', itemIndex, ''));
	const sellingPoints = asText(readField(context, 'sellingPoints', itemIndex, ''));
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
	const options = readOptions(context, itemIndex);
	for (const [option, field] of [
		['planPrompt', 'plan_prompt'],
		['seriesStyleGuide', 'series_style_guide'],
	]) {
		const text = typeof options[option] === 'string' ? (options[option] as string).trim() : '';
		if (text) fields[field] = text;
	}
	const request: GenerationRequest = { fields, extra, images, submitTimeoutMs };
	if (fromModule) request.target = fromModule.target;
	const includeOtherFields = isVersion1(context)
		? includeOtherFieldsOptionV1
		: includeOtherFieldsOption;
	if (optionOrDefault(options, includeOtherFields) === true)
		request.inputFields = context.getInputData()[itemIndex]?.json ?? {};
	const fileName = asText(options.fileName);
	if (fileName) request.fileName = fileName;
	return request;
}

/**
 * A generated item's fields: the input item's when asked for (Include Other Input Fields), the
 * A+ module it is for, then the node's own, which win over an input field of the same name.
 */
export function generatedItemJson(request: GenerationRequest, json: IDataObject): IDataObject {
	if (!request.inputFields && !request.target) return json;
	return { ...(request.inputFields ?? {}), ...(request.target ?? {}), ...json };
}

const OPTION = maxGenerationsOptionV1.displayName;

/**
 * The spending guard: a run that would submit more generations than the limit stops before the
 * first submit. Without the option there is no limit, as before it existed; the current version
 * shows that as 0.
 */
export function checkGenerationCount(context: IExecuteFunctions, generations: number): void {
	if (generations === 0) return;
	const raw = readOptions(context, 0)[maxGenerationsOptionV1.name];
	if (raw === undefined || raw === null || raw === '') return;
	const limit = Number(raw);
	const noLimit = isVersion1(context) ? undefined : 0;
	if (limit === noLimit) return;
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(
			context,
			0,
			OPTION,
			`must be a whole number of at least ${noLimit ?? 1}, got ${JSON.stringify(raw)}`,
		);
	}
	if (generations <= limit) return;
	throw new NodeOperationError(
		context.getNode(),
		`This run would submit ${generations} generations, more than '${OPTION}' (${limit})`,
		{
			description:
				`${generations} items came in, and each submits one generation that the service bills; nothing was submitted. ` +
				`To allow it, raise '${OPTION}' in the node's Options to ${generations} or more (or remove the option); ` +
				'to spend less, filter or limit the items before this node.',
		},
	);
}

/**
 * Uploads the item's input binaries, then submits once: the transport's `billable` policy never
 * repeats a request the service may have taken, and once another item of the run failed it sends
 * nothing (the run's stop, transport/runState.ts): the output would be lost.
 */
export async function submitGeneration(
	context: IExecuteFunctions,
	itemIndex: number,
	request: GenerationRequest,
): Promise<{ task_id: string; status: string; request_id?: string }> {
	const imageUrls = await resolveImageUrls(context, itemIndex, request.images);
	const body: IDataObject = { ...request.fields };
	if (imageUrls.length) body.image_urls = imageUrls;
	Object.assign(body, request.extra);
	const { result, requestId } = await requestResult(
		context,
		{
			kind: 'submit',
			method: 'POST',
			path: ENDPOINTS.generations,
			body,
			itemIndex,
			timeoutMs: request.submitTimeoutMs,
		},
		submissionSchema,
	);
	runControl(context).accepted.push({ itemIndex, taskId: result.task_id });
	return {
		task_id: result.task_id,
		status: result.status ?? 'submitted',
		...(requestId ? { request_id: requestId } : {}),
	};
}
