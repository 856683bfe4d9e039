import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { DETAILS, readField, readListOrText } from '../descriptions/choices';
import {
	includeOtherFieldsOptionV1,
	includeOtherFieldsOption,
} from '../descriptions/common.descriptions';
import {
	extraBodyFieldsOption,
	GENERATION_SOURCE,
	generationOptions,
	generationProperties,
	generationSourceProperty,
	maxGenerationsOptionV1,
	otherServiceFieldsOption,
	SIZE_LABEL,
	submitTimeoutOption,
} from '../descriptions/generation.descriptions';
import { TASK_IMAGE_OUTPUT } from '../descriptions/output.descriptions';
import { isVersion1 } from '../descriptions/versions';
import type { Wording } from '../transport';
import { ENDPOINTS, requestResult, runStateOf } from '../transport';
import type { ModuleSource, ModuleTarget } from './aPlus';
import { readModuleSource, SOURCE_PARAMETER } from './aPlus';
import type { ImageInputs } from './imageInputs';
import { IMAGE_URLS, readImageInputs, resolveImageUrls, shownImageFields } from './imageInputs';
import { otherInputFields } from './inputFields';
import {
	optionOrDefault,
	parameterError,
	labelOf,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from './parameters';
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
		const label = (isVersion1(context) ? extraBodyFieldsOption : otherServiceFieldsOption)
			.displayName;
		throw parameterError(
			context,
			itemIndex,
			label,
			'must be a JSON object',
			`Enter a JSON object, such as {"plan_prompt": "...", "series_style_guide": "..."}, in '${label}'. No request was sent.`,
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
	/** The current version's items: the node's own fields first, the size named as generated. */
	currentShape?: boolean;
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

const aspectRatioSchema = sizeSchema;

/**
 * Aspect ratio and resolution: set on the node, or from the A+ module item, where an unusable
 * value is the item's, and the error says so rather than naming a field the panel hides.
 */
function readSizeAndResolution(
	context: IExecuteFunctions,
	itemIndex: number,
	fromModule: ModuleSource | undefined,
): { size: string; resolution: string } {
	if (fromModule) {
		const parsed = aspectRatioSchema.safeParse(fromModule.size);
		if (!parsed.success) {
			throw parameterError(
				context,
				itemIndex,
				SOURCE_PARAMETER,
				`the module item's 'aspect_ratio' is "${fromModule.size}", not a width:height ratio`,
				`Check the output of 'A+ Plan → Create', or choose 'Define Below' in '${SOURCE_PARAMETER}'. No request was sent.`,
			);
		}
		return { size: parsed.data, resolution: fromModule.resolution };
	}
	const sizeLabel = isVersion1(context) ? SIZE_LABEL.version1 : SIZE_LABEL.current;
	return {
		size: validateParameter(
			context,
			itemIndex,
			sizeLabel,
			sizeSchema,
			readListOrText(context, 'size', itemIndex),
		),
		resolution: validateParameter(
			context,
			itemIndex,
			labelOf(context, GENERATION_PARAMETERS, 'resolution'),
			resolutionSchema,
			readListOrText(context, 'resolution', itemIndex),
		),
	};
}

/** What the service is told about the product: typed, or (empty) the A+ plan's platform and language. */
function readProductFields(
	context: IExecuteFunctions,
	itemIndex: number,
	fromModule: ModuleSource | undefined,
): IDataObject {
	const read = (name: string) =>
		asText(readListOrText(context, name, itemIndex, '', DETAILS.product));
	const productInfo: IDataObject = {};
	const name = asText(readField(context, 'productName', itemIndex, '', DETAILS.product));
	const sellingPoints = asText(readField(context, 'sellingPoints', itemIndex, '', DETAILS.product));
	const platform = read('platform') ?? fromModule?.platform;
	if (name) productInfo.name = name;
	if (sellingPoints) productInfo.sellingPoints = sellingPoints;
	if (platform) productInfo.platform = platform;
	// The spec shows `zh-cn`: codes typed as `en-US` are sent in that form.
	const outputLanguage = (read('outputLanguage') ?? fromModule?.language)?.toLowerCase();
	const fields: IDataObject = {};
	if (Object.keys(productInfo).length) fields.product_info = productInfo;
	if (outputLanguage) fields.output_language = outputLanguage;
	return fields;
}

/** The A+ fields: from the module item, replaced by the options where they are set. */
function readAPlusFields(options: IDataObject, fromModule: ModuleSource | undefined): IDataObject {
	const fields: IDataObject = {};
	if (fromModule) {
		fields.plan_prompt = fromModule.prompt;
		if (fromModule.styleGuide) fields.series_style_guide = fromModule.styleGuide;
	}
	for (const [option, field] of [
		['planPrompt', 'plan_prompt'],
		['seriesStyleGuide', 'series_style_guide'],
	]) {
		const text = typeof options[option] === 'string' ? (options[option] as string).trim() : '';
		if (text) fields[field] = text;
	}
	return fields;
}

/** The images of a generation; from a module item with none given, the photos of its plan. */
function readGenerationImages(
	context: IExecuteFunctions,
	itemIndex: number,
	prompt: string | undefined,
	fromModule: ModuleSource | undefined,
): ImageInputs {
	let images = readImageInputs(context, itemIndex);
	if (images.count === 0 && fromModule?.imageUrls.length) {
		images = { urls: fromModule.imageUrls, binaryFields: [], count: fromModule.imageUrls.length };
	}
	if (!prompt && images.count === 0) {
		const prompt = labelOf(context, GENERATION_PARAMETERS, 'prompt');
		const fields = [prompt, ...shownImageFields(context, itemIndex)].map((name) => `'${name}'`);
		throw parameterError(
			context,
			itemIndex,
			`${fields.slice(0, -1).join(', ')} or ${fields[fields.length - 1]}`,
			'a generation needs a prompt or at least one source image',
		);
	}
	return images;
}

/** Every field a generated item may have of its own: an input field of such a name stays behind. */
const GENERATED_FIELDS = ['task_id', 'request_id', ...Object.keys(TASK_IMAGE_OUTPUT.fields)];

/** The input item's fields for Include Other Input Fields, when on. */
function readInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): IDataObject | undefined {
	const version1 = isVersion1(context);
	const option = version1 ? includeOtherFieldsOptionV1 : includeOtherFieldsOption;
	if (optionOrDefault(options, option) !== true) return undefined;
	const input = context.getInputData()[itemIndex]?.json ?? {};
	return version1 ? input : otherInputFields(input, {}, GENERATED_FIELDS);
}

/** Reads and checks every parameter of a generation without sending anything. */
export function readGenerationRequest(
	context: IExecuteFunctions,
	itemIndex: number,
): GenerationRequest {
	const fromModule = readGenerationSource(context, itemIndex);
	const prompt = fromModule ? fromModule.prompt : optionalText(context, 'prompt', itemIndex);
	const { size, resolution } = readSizeAndResolution(context, itemIndex, fromModule);
	const extra = readExtraBodyFields(context, itemIndex);
	const submitTimeoutMs = readTimeoutMs(context, itemIndex, submitTimeoutOption);
	const images = readGenerationImages(context, itemIndex, prompt, fromModule);
	const options = readOptions(context, itemIndex);
	// The spec shows `1k`: a label typed as `1K` is sent in that form.
	const fields: IDataObject = { size, resolution: resolution.toLowerCase() };
	if (prompt) fields.prompt = prompt;
	Object.assign(
		fields,
		readProductFields(context, itemIndex, fromModule),
		readAPlusFields(options, fromModule),
	);
	const request: GenerationRequest = { fields, extra, images, submitTimeoutMs };
	if (fromModule) request.target = fromModule.target;
	const inputFields = readInputFields(context, itemIndex, options);
	if (inputFields) request.inputFields = inputFields;
	const fileName = asText(options.fileName);
	if (fileName) request.fileName = fileName;
	if (!isVersion1(context)) request.currentShape = true;
	return request;
}

/** A generated image's pixel size, named as what it is (see TASK_IMAGE_OUTPUT). */
function generatedSize(json: IDataObject): IDataObject {
	if (!('width' in json) && !('height' in json)) return json;
	const { width, height, ...rest } = json;
	return { ...rest, generated_width: width, generated_height: height };
}

/**
 * A generated item's fields: the A+ module it is for and the node's own, then, when asked for
 * (Include Other Input Fields), the input item's. Version 1 puts the input's first, its own
 * winning on a clash.
 */
export function generatedItemJson(request: GenerationRequest, json: IDataObject): IDataObject {
	if (!request.currentShape) {
		if (!request.inputFields && !request.target) return json;
		return { ...(request.inputFields ?? {}), ...(request.target ?? {}), ...json };
	}
	const own: IDataObject = { ...(request.target ?? {}), ...generatedSize(json) };
	if (Array.isArray(own.images))
		own.images = (own.images as IDataObject[]).map((image) => generatedSize(image));
	return { ...own, ...otherInputFields(request.inputFields ?? {}, own) };
}

/**
 * Input items that are A+ module items while the images are defined below: each would be made at
 * the node's aspect ratio, not its module's, without a word. One hint for the run says so.
 */
export function hintModuleItemsDefinedBelow(context: IExecuteFunctions): void {
	if (isVersion1(context)) return;
	const source = context.getNodeParameter(
		generationSourceProperty.name,
		0,
		generationSourceProperty.default,
	);
	if (source === GENERATION_SOURCE.module) return;
	const modules = context
		.getInputData()
		.filter(({ json }) => typeof json.recommended_prompt === 'string' && json.target_width);
	if (modules.length === 0) return;
	context.addExecutionHints?.({
		message: `The input items are A+ module items, but '${SOURCE_PARAMETER}' is 'Define Below': each image is generated at the '${SIZE_LABEL.current}' and '${labelOf(context, GENERATION_PARAMETERS, 'resolution')}' set here, not at its module's size. Choose 'A+ Module of the Input Item' to take each module's prompt, aspect ratio and resolution.`,
		type: 'warning',
		location: 'outputPane',
	});
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

const GENERATION_PARAMETERS = [...generationProperties, ...generationOptions(true)];

/** The labels a refused submit's advice names: the panel field behind each field of the request. */
function submitWording(context: IExecuteFunctions): Wording {
	const label = (name: string) => labelOf(context, GENERATION_PARAMETERS, name);
	return {
		timeout: submitTimeoutOption.displayName,
		otherFields: extraBodyFieldsOption.displayName,
		fields: {
			'product_info.name': label('productName'),
			'product_info.sellingPoints': label('sellingPoints'),
			'product_info.platform': label('platform'),
			plan_prompt: label('planPrompt'),
			series_style_guide: label('seriesStyleGuide'),
			output_language: label('outputLanguage'),
			image_urls: IMAGE_URLS,
			prompt: label('prompt'),
			size: label('size'),
			resolution: label('resolution'),
		},
	};
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
			wording: submitWording(context),
		},
		submissionSchema,
	);
	runStateOf(context).acceptedTasks.push({ itemIndex, taskId: result.task_id });
	return {
		task_id: result.task_id,
		status: result.status ?? 'submitted',
		...(requestId ? { request_id: requestId } : {}),
	};
}
