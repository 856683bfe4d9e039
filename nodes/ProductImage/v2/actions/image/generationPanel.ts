import type { IExecuteFunctions } from 'n8n-workflow';

import { DETAILS } from '../../../descriptions/choices';
import type { GenerationPanel } from '../../../helpers/generation';
import { checkGenerationCount } from '../../../helpers/generation';
import { labelOf, parameterOrDefault } from '../../../helpers/parameters';
import {
	GENERATION_SOURCE,
	generationOptions,
	generationProperties,
	generationSourceProperty,
} from '../../descriptions/generation.descriptions';
import { TASK_IMAGE_OUTPUT } from '../../descriptions/output.descriptions';
import { readChoice, readField, shownImageFields } from '../../reading';
import { readModuleSource, SOURCE_PARAMETER } from './moduleSource';

const properties = [...generationProperties, ...generationOptions(true)];

/** The lists this version keeps in Product Details; Aspect Ratio and Resolution stay at the top. */
const PRODUCT_LISTS = ['platform', 'outputLanguage'];

/** Every field a generated item may have of its own: an input field of such a name goes under 'input_fields'. */
const GENERATED_FIELDS = ['task_id', 'request_id', ...Object.keys(TASK_IMAGE_OUTPUT.fields)];

const fromModule = (context: IExecuteFunctions, itemIndex: number) =>
	parameterOrDefault(context, itemIndex, generationSourceProperty) === GENERATION_SOURCE.module;

export const generationPanel: GenerationPanel = {
	properties,
	text: (context, name, itemIndex) => readField(context, name, itemIndex, '', DETAILS.product),
	choice: (context, name, itemIndex) =>
		PRODUCT_LISTS.includes(name)
			? readChoice(context, name, itemIndex, { properties, fallback: '', details: DETAILS.product })
			: readChoice(context, name, itemIndex, { properties }),
	imageFields: shownImageFields,
	moduleSource: (context, itemIndex) =>
		fromModule(context, itemIndex) ? readModuleSource(context, itemIndex) : undefined,
	inputFields: (input) => input,
	itemShape: 'ownFirst',
	ownFields: GENERATED_FIELDS,
	noGenerationLimit: 0,
};

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
	checkGenerationCount(this, ready, generationPanel);
	hintModuleItemsDefinedBelow(this);
}
