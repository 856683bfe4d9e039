import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { Wording } from '../transport/guidance';
import { ENDPOINTS, requestResult, runStateOf } from '../transport/request';
import type { ImageInputs, ShownImageFields } from './imageInputs';
import type { ModuleTarget } from './output';
import { IMAGE_URLS, readImageInputs, resolveImageUrls } from './imageInputs';
import {
	labelOf,
	optionOrDefault,
	panelProperty,
	parameterError,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from './parameters';
import { submissionSchema } from './task';

/** An A+ module item's settings for its image, its plan's photos, platform and language. */
export interface ModuleSource {
	target: ModuleTarget;
	prompt: string;
	styleGuide?: string;
	size: string;
	resolution: string;
	imageUrls: string[];
	platform?: string;
	language?: string;
}

/** As the version's panel holds them for one item (Other typed in); `module` is an A+ module item's. */
export interface GenerationValues {
	prompt?: unknown;
	size?: unknown;
	resolution?: unknown;
	productName: unknown;
	sellingPoints: unknown;
	platform: unknown;
	outputLanguage: unknown;
	imageFields: ShownImageFields;
	module?: ModuleSource;
}

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

/** An expression may give a number or a flag, sent as text; an object would reach the service as "[object Object]". */
const textSchema = z
	.union([z.string(), z.number(), z.boolean()], {
		errorMap: () => ({ message: 'must be text, not an object or a list' }),
	})
	.nullish();

function asText(value: unknown): string | undefined {
	return String(value ?? '').trim() || undefined;
}

function readExtraBodyFields(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	raw: unknown,
): IDataObject {
	if (raw === undefined || raw === '' || raw === null) return {};
	const parsed =
		typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: undefined }) : raw;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		const name = labelOf(properties, 'extraBodyFields');
		throw parameterError(
			context,
			itemIndex,
			name,
			'must be a JSON object',
			`Enter a JSON object, such as {"plan_prompt": "...", "series_style_guide": "..."}, in '${name}'. No request was sent.`,
		);
	}
	return parsed as IDataObject;
}

/** Read and checked; the input binaries are not uploaded yet. */
export interface GenerationRequest {
	fields: IDataObject;
	extra: IDataObject;
	images: ImageInputs;
	submitTimeoutMs: number;
	target?: ModuleTarget;
	inputFields?: IDataObject;
	fileName?: string;
	wording: Wording;
}

/** From a module item, an unusable value is the item's: the error does not name a hidden field. */
function checkSizeAndResolution(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	values: GenerationValues,
): { size: string; resolution: string } {
	const fromModule = values.module;
	if (fromModule) {
		const parsed = sizeSchema.safeParse(fromModule.size);
		if (!parsed.success) {
			const source = labelOf(properties, 'generationSource');
			throw parameterError(
				context,
				itemIndex,
				source,
				`the module item's 'aspect_ratio' is "${fromModule.size}", not a width:height ratio`,
				`Check the output of 'A+ Plan → Create', or choose 'Define Below' in '${source}'. No request was sent.`,
			);
		}
		return { size: parsed.data, resolution: fromModule.resolution };
	}
	const checked = (name: 'size' | 'resolution', schema: z.ZodTypeAny) =>
		validateParameter(
			context,
			itemIndex,
			labelOf(properties, name),
			schema,
			values[name],
		) as string;
	return { size: checked('size', sizeSchema), resolution: checked('resolution', resolutionSchema) };
}

/** What the service is told about the product: typed, or (empty) the A+ plan's platform and language. */
function checkProductFields(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	values: GenerationValues,
): IDataObject {
	const fromModule = values.module;
	const productInfo: IDataObject = {};
	const text = (field: 'productName' | 'sellingPoints') =>
		asText(
			validateParameter(context, itemIndex, labelOf(properties, field), textSchema, values[field]),
		);
	const name = text('productName');
	const sellingPoints = text('sellingPoints');
	const platform = asText(values.platform) ?? fromModule?.platform;
	if (name) productInfo.name = name;
	if (sellingPoints) productInfo.sellingPoints = sellingPoints;
	if (platform) productInfo.platform = platform;
	// The spec shows `zh-cn`: codes typed as `en-US` are sent in that form.
	const outputLanguage = (asText(values.outputLanguage) ?? fromModule?.language)?.toLowerCase();
	const fields: IDataObject = {};
	if (Object.keys(productInfo).length) fields.product_info = productInfo;
	if (outputLanguage) fields.output_language = outputLanguage;
	return fields;
}

/** From the module item, replaced by the options where they are set. */
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

/** From a module item with none given, the photos of its plan. */
function readGenerationImages(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	prompt: string | undefined,
	{ imageFields: shown, module: fromModule }: GenerationValues,
): ImageInputs {
	let images = readImageInputs(context, itemIndex, shown);
	if (images.count === 0 && fromModule?.imageUrls.length) {
		images = { urls: fromModule.imageUrls, binaryFields: [], count: fromModule.imageUrls.length };
	}
	if (!prompt && images.count === 0) {
		const fields = [labelOf(properties, 'prompt'), ...shown.labels].map((name) => `'${name}'`);
		throw parameterError(
			context,
			itemIndex,
			`${fields.slice(0, -1).join(', ')} or ${fields[fields.length - 1]}`,
			'a generation needs a prompt or at least one source image',
		);
	}
	return images;
}

/** The version's values checked, with the Options both versions keep alike; nothing is sent yet. */
export function buildGenerationRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	values: GenerationValues,
): GenerationRequest {
	const fromModule = values.module;
	const prompt = asText(fromModule ? fromModule.prompt : values.prompt);
	const { size, resolution } = checkSizeAndResolution(context, itemIndex, properties, values);
	const options = readOptions(context, itemIndex);
	const extra = readExtraBodyFields(context, itemIndex, properties, options.extraBodyFields);
	const submitTimeout = panelProperty(properties, 'submitTimeout');
	const submitTimeoutMs = readTimeoutMs(context, itemIndex, submitTimeout);
	const images = readGenerationImages(context, itemIndex, properties, prompt, values);
	// The spec shows `1k`: a label typed as `1K` is sent in that form.
	const fields: IDataObject = { size, resolution: resolution.toLowerCase() };
	if (prompt) fields.prompt = prompt;
	Object.assign(
		fields,
		checkProductFields(context, itemIndex, properties, values),
		readAPlusFields(options, fromModule),
	);
	const request: GenerationRequest = {
		fields,
		extra,
		images,
		submitTimeoutMs,
		wording: submitWording(properties),
	};
	if (fromModule) request.target = fromModule.target;
	if (optionOrDefault(options, panelProperty(properties, 'includeOtherFields')) === true)
		request.inputFields = context.getInputData()[itemIndex]?.json ?? {};
	const fileName = asText(options.fileName);
	if (fileName) request.fileName = fileName;
	return request;
}

/** The spending guard: unset, or 0 where its `minValue` allows 0, there is no limit. */
export function checkGenerationCount(
	context: IExecuteFunctions,
	generations: number,
	option: INodeProperties,
): void {
	if (generations === 0) return;
	const raw = readOptions(context, 0)[option.name];
	if (raw === undefined || raw === null || raw === '') return;
	const limit = Number(raw);
	const lowest = option.typeOptions?.minValue ?? 1;
	if (limit === 0 && lowest === 0) return;
	const name = option.displayName;
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(
			context,
			0,
			name,
			`must be a whole number of at least ${lowest}, got ${JSON.stringify(raw)}`,
		);
	}
	if (generations <= limit) return;
	throw new NodeOperationError(
		context.getNode(),
		`This run would submit ${generations} generations, more than '${name}' (${limit})`,
		{
			description:
				`${generations} items came in, and each submits one generation that the service bills; nothing was submitted. ` +
				`To allow it, raise '${name}' in the node's Options to ${generations} or more (or remove the option); ` +
				'to spend less, filter or limit the items before this node.',
		},
	);
}

/** The panel field behind each field of the request, for a refused submit's advice. */
function submitWording(properties: INodeProperties[]): Wording {
	const named = (name: string) => labelOf(properties, name);
	return {
		timeout: named('submitTimeout'),
		otherFields: named('extraBodyFields'),
		fields: {
			'product_info.name': named('productName'),
			'product_info.sellingPoints': named('sellingPoints'),
			'product_info.platform': named('platform'),
			plan_prompt: named('planPrompt'),
			series_style_guide: named('seriesStyleGuide'),
			output_language: named('outputLanguage'),
			image_urls: IMAGE_URLS,
			prompt: named('prompt'),
			size: named('size'),
			resolution: named('resolution'),
		},
	};
}
/** Submits once: a request the service may have taken is never repeated (transport/request.ts). */
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
			wording: request.wording,
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
