import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DETAILS, RESOLUTION_LONG_SIDES } from '../../../descriptions/common.descriptions';
import type {
	GenerationRequest,
	GenerationValues,
	ModuleSource,
} from '../../../helpers/generation';
import { buildGenerationRequest, checkGenerationCount } from '../../../helpers/generation';
import {
	inputFieldsBeside,
	labelOf,
	panelProperty,
	parameterError,
	parameterOrDefault,
} from '../../../helpers/parameters';
import { isHttpUrl } from '../../../transport/send';
import {
	GENERATION_SOURCE,
	generationOptions,
	generationProperties,
	generationSourceProperty,
} from '../../descriptions/generation.descriptions';
import { TASK_IMAGE_OUTPUT } from '../../descriptions/output.descriptions';
import { readChoice, readField, shownImageFields } from '../../reading';

/** Where a generation's labels and defaults are read, its Options included. */
const properties = [...generationProperties, ...generationOptions(true)];

const SOURCE_PARAMETER = generationSourceProperty.displayName;

/** Every field a generated item may have of its own: an input field of such a name goes under 'input_fields'. */
const GENERATED_FIELDS = ['task_id', 'request_id', ...Object.keys(TASK_IMAGE_OUTPUT.fields)];

/** A positive whole number, also written as text (`"970"`): items from a store or a JSON file carry them so. */
const positive = (value: unknown) => {
	const number = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
	return typeof number === 'number' && Number.isInteger(number) && number > 0 ? number : undefined;
};
const text = (value: unknown) =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

/** The spec leaves global_style's type open: a structured one is sent as its JSON text. */
function styleGuideOf(value: unknown): string | undefined {
	if (value && typeof value === 'object') return JSON.stringify(value);
	return text(value);
}

/** The smallest label whose long side covers the module's long side (its aspect ratio is sent as is). */
export function coveringResolution(width: number, height: number): string | undefined {
	const longSide = Math.max(width, height);
	return RESOLUTION_LONG_SIDES.find(([, side]) => side >= longSide)?.[0];
}

function describeItem(json: IDataObject): string {
	if (Array.isArray(json.modules)) {
		return "It is a whole A+ plan (it has a 'modules' list): in 'A+ Plan → Create', turn on 'One Item per Module' in Options, so each module becomes an item of its own.";
	}
	if (typeof json.task_id === 'string') return 'It is a generation task, not a plan module.';
	if (
		json.formattedText !== undefined ||
		json.output_text !== undefined ||
		json.analysis !== undefined
	)
		return "It is a product analysis: plan the A+ modules with 'A+ Plan → Create' first.";
	return "Connect the output of 'A+ Plan → Create' with 'One Item per Module' on, or choose 'Define Below'.";
}

/** An item that is not an A+ module is refused, naming what it lacks, before anything is sent. */
function readModuleSource(context: IExecuteFunctions, itemIndex: number): ModuleSource {
	const json = (context.getInputData()[itemIndex]?.json ?? {}) as IDataObject;
	const found = {
		module: text(json.module),
		recommended_prompt: text(json.recommended_prompt),
		aspect_ratio: text(json.aspect_ratio),
		target_width: positive(json.target_width),
		target_height: positive(json.target_height),
	};
	const { module, recommended_prompt: prompt, aspect_ratio: size } = found;
	const { target_width: width, target_height: height } = found;
	if (!module || !prompt || !size || !width || !height) {
		const missing = Object.keys(found).filter((name) => !found[name as keyof typeof found]);
		throw parameterError(
			context,
			itemIndex,
			SOURCE_PARAMETER,
			`the input item is not an A+ module: it has no ${missing.join(', ')}`,
			`${describeItem(json)} No request was sent.`,
		);
	}
	const resolution = coveringResolution(width, height);
	if (!resolution) {
		throw parameterError(
			context,
			itemIndex,
			SOURCE_PARAMETER,
			`no resolution label covers the module's ${width}×${height}`,
			`Choose 'Define Below' and set '${labelOf(generationProperties, 'size')}' and '${labelOf(generationProperties, 'resolution')}'. No request was sent.`,
		);
	}
	const imageUrls = Array.isArray(json.image_urls)
		? json.image_urls.filter((url): url is string => typeof url === 'string' && isHttpUrl(url))
		: [];
	return {
		target: {
			module,
			target_width: width,
			target_height: height,
			target_size: `${width}x${height}`,
		},
		prompt,
		styleGuide: styleGuideOf(json.global_style),
		size,
		resolution,
		imageUrls,
		platform: text(json.platform),
		language: text(json.language),
	};
}

const fromModule = (context: IExecuteFunctions, itemIndex: number) =>
	parameterOrDefault(context, itemIndex, generationSourceProperty) === GENERATION_SOURCE.module;

/** Product Details' fields, its lists' Other values taken; the image settings from a module item or below. */
function readGenerationValues(context: IExecuteFunctions, itemIndex: number): GenerationValues {
	const inDetails = (name: string) => readField(context, name, itemIndex, '', DETAILS.product);
	const listInDetails = (name: string) =>
		readChoice(context, name, itemIndex, { properties, fallback: '', details: DETAILS.product });
	const module = fromModule(context, itemIndex) ? readModuleSource(context, itemIndex) : undefined;
	const list = (name: string) =>
		module ? undefined : readChoice(context, name, itemIndex, { properties });
	return {
		prompt: module ? undefined : context.getNodeParameter('prompt', itemIndex, ''),
		size: list('size'),
		resolution: list('resolution'),
		productName: inDetails('productName'),
		sellingPoints: inDetails('sellingPoints'),
		platform: listInDetails('platform'),
		outputLanguage: listInDetails('outputLanguage'),
		imageFields: shownImageFields(context, itemIndex),
		module,
	};
}

export function readGeneration(this: IExecuteFunctions, itemIndex: number): GenerationRequest {
	return buildGenerationRequest(this, itemIndex, properties, readGenerationValues(this, itemIndex));
}

/** The pixel size, named as what it is: the size before any fitting. */
function generatedSize(json: IDataObject): IDataObject {
	if (!('width' in json) && !('height' in json)) return json;
	const { width, height, ...rest } = json;
	return { ...rest, generated_width: width, generated_height: height };
}

/** The node's own fields first, the size named as generated; the input's kept under 'input_fields'. */
export function generatedItemJson(request: GenerationRequest, json: IDataObject): IDataObject {
	const own: IDataObject = { ...(request.target ?? {}), ...generatedSize(json) };
	if (Array.isArray(own.images))
		own.images = (own.images as IDataObject[]).map((image) => generatedSize(image));
	return {
		...own,
		...inputFieldsBeside(request.inputFields ?? {}, own, { ownNames: GENERATED_FIELDS }),
	};
}

/** What to do about an image generated smaller than its module: the panel's own words. */
export const LARGER_ADVICE = `To generate it larger, choose 'Define Below' in '${SOURCE_PARAMETER}' and a higher '${labelOf(properties, 'resolution')}'.`;

/** Module items with the images defined below would each be made at the node's aspect ratio. */
function hintModuleItemsDefinedBelow(context: IExecuteFunctions): void {
	if (fromModule(context, 0)) return;
	const modules = context
		.getInputData()
		.filter(({ json }) => typeof json.recommended_prompt === 'string' && json.target_width);
	if (modules.length === 0) return;
	context.addExecutionHints?.({
		message: `The input items are A+ module items, but '${SOURCE_PARAMETER}' is 'Define Below': each image is generated at the '${labelOf(properties, 'size')}' and '${labelOf(properties, 'resolution')}' set here, not at its module's size. Choose 'A+ Module of the Input Item' to take each module's prompt, aspect ratio and resolution.`,
		type: 'warning',
		location: 'outputPane',
	});
}

/** Generate's and Generate and Wait's check of a run: the spending guard, then that hint. */
export function checkRun(this: IExecuteFunctions, ready: number): void {
	checkGenerationCount(this, ready, panelProperty(properties, 'maxGenerations'));
	hintModuleItemsDefinedBelow(this);
}
