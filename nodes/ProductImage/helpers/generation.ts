import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { jsonParse, NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import type { Wording } from '../transport';
import { ENDPOINTS, requestResult, runStateOf } from '../transport';
import type { ModuleSource, ModuleTarget } from './aPlus';
import type { ImageInputs, ShownImageFields } from './imageInputs';
import { IMAGE_URLS, readImageInputs, resolveImageUrls } from './imageInputs';
import { inputFieldsBeside } from './inputFields';
import {
	optionOrDefault,
	panelProperty,
	parameterError,
	propertyIn,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from './parameters';
import { submissionSchema } from './schemas';

/** Each version's folder gives one, so the checks and the request below are the same for both. */
export interface GenerationPanel {
	/** Where labels are read. */
	properties: INodeProperties[];
	text(context: IExecuteFunctions, name: string, itemIndex: number): unknown;
	/** Other's typed value resolved. */
	choice(context: IExecuteFunctions, name: string, itemIndex: number): unknown;
	imageFields(context: IExecuteFunctions, itemIndex: number): ShownImageFields;
	moduleSource?(context: IExecuteFunctions, itemIndex: number): ModuleSource | undefined;
	/** Those that ride along when Include Other Input Fields is on. */
	inputFields(input: IDataObject): IDataObject;
	/** `ownFirst`: every field a generated item may have of its own, named like an input field or not. */
	ownFields?: readonly string[];
	/** `ownFirst`: the node's own fields first, the size named as generated; `inputFirst`: the input's first. */
	itemShape: 'inputFirst' | 'ownFirst';
	/** The limit Max Generations per Run means "none" by: unset, or also 0. */
	noGenerationLimit?: number;
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
	const text = typeof value === 'string' ? value.trim() : String(value ?? '').trim();
	return text === '' ? undefined : text;
}

const label = (panel: GenerationPanel, name: string) =>
	panelProperty(panel.properties, name).displayName;

function readExtraBodyFields(
	context: IExecuteFunctions,
	itemIndex: number,
	panel: GenerationPanel,
): IDataObject {
	const raw = readOptions(context, itemIndex).extraBodyFields;
	if (raw === undefined || raw === '' || raw === null) return {};
	const parsed =
		typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: undefined }) : raw;
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		const name = label(panel, 'extraBodyFields');
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

/** A generation's parameters, read and checked; the input binaries are not uploaded yet. */
export interface GenerationRequest {
	fields: IDataObject;
	extra: IDataObject;
	images: ImageInputs;
	submitTimeoutMs: number;
	/** When the request came from an A+ module item. */
	target?: ModuleTarget;
	inputFields?: IDataObject;
	fileName?: string;
	itemShape: GenerationPanel['itemShape'];
	ownFields?: readonly string[];
	wording: Wording;
}

/** From a module item, an unusable value is the item's: the error does not name a hidden field. */
function readSizeAndResolution(
	context: IExecuteFunctions,
	itemIndex: number,
	panel: GenerationPanel,
	fromModule: ModuleSource | undefined,
): { size: string; resolution: string } {
	if (fromModule) {
		const parsed = sizeSchema.safeParse(fromModule.size);
		if (!parsed.success) {
			const source = label(panel, 'generationSource');
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
	const checked = (name: string, schema: z.ZodTypeAny) =>
		validateParameter(
			context,
			itemIndex,
			label(panel, name),
			schema,
			panel.choice(context, name, itemIndex),
		) as string;
	return { size: checked('size', sizeSchema), resolution: checked('resolution', resolutionSchema) };
}

/** What the service is told about the product: typed, or (empty) the A+ plan's platform and language. */
function readProductFields(
	context: IExecuteFunctions,
	itemIndex: number,
	panel: GenerationPanel,
	fromModule: ModuleSource | undefined,
): IDataObject {
	const productInfo: IDataObject = {};
	const text = (field: string) =>
		asText(
			validateParameter(
				context,
				itemIndex,
				label(panel, field),
				textSchema,
				panel.text(context, field, itemIndex),
			),
		);
	const name = text('productName');
	const sellingPoints = text('sellingPoints');
	const platform = asText(panel.choice(context, 'platform', itemIndex)) ?? fromModule?.platform;
	if (name) productInfo.name = name;
	if (sellingPoints) productInfo.sellingPoints = sellingPoints;
	if (platform) productInfo.platform = platform;
	// The spec shows `zh-cn`: codes typed as `en-US` are sent in that form.
	const outputLanguage = (
		asText(panel.choice(context, 'outputLanguage', itemIndex)) ?? fromModule?.language
	)?.toLowerCase();
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
	panel: GenerationPanel,
	prompt: string | undefined,
	fromModule: ModuleSource | undefined,
): ImageInputs {
	const shown = panel.imageFields(context, itemIndex);
	let images = readImageInputs(context, itemIndex, shown);
	if (images.count === 0 && fromModule?.imageUrls.length) {
		images = { urls: fromModule.imageUrls, binaryFields: [], count: fromModule.imageUrls.length };
	}
	if (!prompt && images.count === 0) {
		const fields = [label(panel, 'prompt'), ...shown.labels].map((name) => `'${name}'`);
		throw parameterError(
			context,
			itemIndex,
			`${fields.slice(0, -1).join(', ')} or ${fields[fields.length - 1]}`,
			'a generation needs a prompt or at least one source image',
		);
	}
	return images;
}

function readInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	panel: GenerationPanel,
	options: IDataObject,
): IDataObject | undefined {
	const option = panelProperty(panel.properties, 'includeOtherFields');
	if (optionOrDefault(options, option) !== true) return undefined;
	return panel.inputFields(context.getInputData()[itemIndex]?.json ?? {});
}

export function readGenerationRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	panel: GenerationPanel,
): GenerationRequest {
	const fromModule = panel.moduleSource?.(context, itemIndex);
	const prompt = fromModule
		? fromModule.prompt
		: asText(context.getNodeParameter('prompt', itemIndex, ''));
	const { size, resolution } = readSizeAndResolution(context, itemIndex, panel, fromModule);
	const extra = readExtraBodyFields(context, itemIndex, panel);
	const submitTimeout = panelProperty(panel.properties, 'submitTimeout');
	const submitTimeoutMs = readTimeoutMs(context, itemIndex, submitTimeout);
	const images = readGenerationImages(context, itemIndex, panel, prompt, fromModule);
	const options = readOptions(context, itemIndex);
	// The spec shows `1k`: a label typed as `1K` is sent in that form.
	const fields: IDataObject = { size, resolution: resolution.toLowerCase() };
	if (prompt) fields.prompt = prompt;
	Object.assign(
		fields,
		readProductFields(context, itemIndex, panel, fromModule),
		readAPlusFields(options, fromModule),
	);
	const request: GenerationRequest = {
		fields,
		extra,
		images,
		submitTimeoutMs,
		itemShape: panel.itemShape,
		ownFields: panel.ownFields,
		wording: submitWording(panel),
	};
	if (fromModule) request.target = fromModule.target;
	const inputFields = readInputFields(context, itemIndex, panel, options);
	if (inputFields) request.inputFields = inputFields;
	const fileName = asText(options.fileName);
	if (fileName) request.fileName = fileName;
	return request;
}

/** The pixel size, named as what it is: the size before any fitting. */
function generatedSize(json: IDataObject): IDataObject {
	if (!('width' in json) && !('height' in json)) return json;
	const { width, height, ...rest } = json;
	return { ...rest, generated_width: width, generated_height: height };
}

/** `inputFirst`: the node's own fields win a clash; `ownFirst` keeps the input's under 'input_fields'. */
export function generatedItemJson(request: GenerationRequest, json: IDataObject): IDataObject {
	if (request.itemShape === 'inputFirst') {
		if (!request.inputFields && !request.target) return json;
		return { ...(request.inputFields ?? {}), ...(request.target ?? {}), ...json };
	}
	const own: IDataObject = { ...(request.target ?? {}), ...generatedSize(json) };
	if (Array.isArray(own.images))
		own.images = (own.images as IDataObject[]).map((image) => generatedSize(image));
	return {
		...own,
		...inputFieldsBeside(request.inputFields ?? {}, own, { ownNames: request.ownFields }),
	};
}

/** The spending guard. Without the option there is no limit, as before it existed. */
export function checkGenerationCount(
	context: IExecuteFunctions,
	generations: number,
	panel: GenerationPanel,
): void {
	if (generations === 0) return;
	const option = propertyIn(panel.properties, 'maxGenerations');
	const raw = readOptions(context, 0)[option.name];
	if (raw === undefined || raw === null || raw === '') return;
	const limit = Number(raw);
	if (limit === panel.noGenerationLimit) return;
	const name = option.displayName;
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(
			context,
			0,
			name,
			`must be a whole number of at least ${panel.noGenerationLimit ?? 1}, got ${JSON.stringify(raw)}`,
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
function submitWording(panel: GenerationPanel): Wording {
	const named = (name: string) => label(panel, name);
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
/**
 * Submits once: the `billable` policy never repeats a request the service may have taken, and once
 * another item failed nothing is sent (transport/runState.ts): the output would be lost.
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
