import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ModuleSource } from '../../../helpers/aPlus';
import { coveringResolution } from '../../../helpers/aPlus';
import { labelOf, parameterError } from '../../../helpers/parameters';
import { isHttpUrl } from '../../../transport';
import {
	generationProperties,
	generationSourceProperty,
} from '../../descriptions/generation.descriptions';

export const SOURCE_PARAMETER = generationSourceProperty.displayName;

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
export function readModuleSource(context: IExecuteFunctions, itemIndex: number): ModuleSource {
	const json = (context.getInputData()[itemIndex]?.json ?? {}) as IDataObject;
	const module = text(json.module);
	const prompt = text(json.recommended_prompt);
	const size = text(json.aspect_ratio);
	const width = positive(json.target_width);
	const height = positive(json.target_height);
	const missing = [
		['module', module],
		['recommended_prompt', prompt],
		['aspect_ratio', size],
		['target_width', width],
		['target_height', height],
	]
		.filter(([, value]) => value === undefined)
		.map(([name]) => name);
	if (missing.length || !module || !prompt || !size || !width || !height) {
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
