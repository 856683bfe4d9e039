import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { A_PLUS_MODULE_IDS, A_PLUS_MODULES, planModuleItems, plainText } from '../../helpers/aPlus';
import type { ImageInputs } from '../../helpers/imageInputs';
import { readImageInputs, resolveImageUrls } from '../../helpers/imageInputs';
import {
	parameterError,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from '../../helpers/parameters';
import { planSchema } from '../../helpers/schemas';
import {
	LANGUAGE_CASING,
	MARKET_CHOICES,
	PLAN_LANGUAGE_CHOICES,
	platformList,
	readField,
	readListOrText,
	SERVICE_DEFAULT,
	withOther,
} from '../../descriptions/choices';
import { outputProperties, PLAN_MODULE_OUTPUT } from '../../descriptions/output.descriptions';
import { inCurrentVersion, inVersion1, isVersion1 } from '../../descriptions/versions';
import { withInputFields } from '../../helpers/inputFields';
import { shapeOutput } from '../../helpers/outputFields';
import { ENDPOINTS, requestResult } from '../../transport';
import {
	imageSourceFields,
	imageUrlsProperty,
	includeOtherFieldsOption,
	inputBinaryFieldsProperty,
	optionsCollection,
	maxConcurrencyOption,
	platformProperty,
	timeoutOption,
} from '../../descriptions/common.descriptions';

const productDescriptionV1: INodeProperties = {
	displayName: 'Product Description',
	name: 'productDescription',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	placeholder: 'e.g. Insulated steel water bottle, 750 ml, keeps drinks cold for 24 hours',
	description: "What the product is. The brief of 'Analysis → Analyze' is the recommended source.",
};

const SMALL_WORDS = new Set(['a', 'an', 'and', 'for', 'in', 'of', 'or', 'the', 'to']);

/** A module's purpose as a Title Case list title: "Size, capacity or clothing size" → "Size, Capacity or Clothing Size". */
function titleOf(purpose: string): string {
	return purpose
		.split(' ')
		.map((word, index) =>
			index > 0 && SMALL_WORDS.has(word.toLowerCase())
				? word.toLowerCase()
				: word.replace(
						/(^|-)([a-z])/g,
						(_, dash: string, letter: string) => dash + letter.toUpperCase(),
					),
		)
		.join(' ');
}

const modulesProperty: INodeProperties = {
	displayName: 'Modules',
	name: 'modules',
	type: 'multiOptions',
	required: true,
	default: ['hero', 'core', 'usage'],
	description: 'A+ modules to plan, each with the pixel size its image must fill',
	options: A_PLUS_MODULES.map((module) => ({
		name: `${titleOf(module.purpose)} (${module.width}×${module.height})`,
		value: module.id,
		description: `${module.purpose}. Sent as ${module.id}.`,
	})).sort((a, b) => a.name.localeCompare(b.name)),
};

const splitModulesOption: INodeProperties = {
	displayName: 'One Item per Module',
	name: 'splitModules',
	type: 'boolean',
	default: false,
	description:
		'Whether to output one item per planned module, carrying its prompt, the style guide, the notes and the target size and aspect ratio, ready for a Generate node. Off: the whole plan as one item.',
};

const version1: INodeProperties[] = inVersion1([
	modulesProperty,
	productDescriptionV1,
	{ ...imageUrlsProperty, description: `${imageUrlsProperty.description}. At least 1 image.` },
	inputBinaryFieldsProperty,
	platformProperty,
	{
		displayName: 'Market',
		name: 'market',
		type: 'string',
		default: '',
		placeholder: 'e.g. US',
		description: 'Two-letter market code, such as US, DE or JP',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: '',
		placeholder: 'e.g. en-US',
		description: 'Language of the plan, such as en-US or zh-CN',
	},
	optionsCollection([maxConcurrencyOption, splitModulesOption, timeoutOption]),
]);

const productDescriptionProperty: INodeProperties = {
	...productDescriptionV1,
	description:
		"What the product is. Empty: the brief of an Analyze item ('formattedText' or 'output_text'), when the input item has one. HTML from a store and Markdown are sent as plain text.",
};

const planLists: INodeProperties[] = [
	...platformList('Sales platform whose content rules the plan follows'),
	...withOther(
		{
			displayName: 'Market',
			name: 'market',
			type: 'options',
			options: [SERVICE_DEFAULT, ...MARKET_CHOICES],
			default: '',
			description: 'Market the plan is for',
		},
		{ placeholder: 'e.g. BE', description: 'Two-letter market code, any case' },
	),
	...withOther(
		{
			displayName: 'Language',
			name: 'language',
			type: 'options',
			options: [SERVICE_DEFAULT, ...PLAN_LANGUAGE_CHOICES],
			default: '',
			description: 'Language of the plan',
		},
		{ placeholder: 'e.g. cs-CZ', description: `Language code. ${LANGUAGE_CASING}` },
	),
];

const planOptions: INodeProperties[] = [
	maxConcurrencyOption,
	{
		...splitModulesOption,
		default: true,
		description:
			"Whether to output one item per planned module, with its prompt, the style guide, the notes, its target size and the plan's photos, ready for 'Generate and Wait' with 'Prompt and Size From': 'A+ Module of the Input Item'. Off: the whole plan as one item. Defaults to on.",
	},
	timeoutOption,
];

/** The current version keeps the optional fields in Options. */
const currentVersion: INodeProperties[] = [
	...inCurrentVersion([modulesProperty]),
	...imageSourceFields(
		[{ ...imageUrlsProperty, description: `${imageUrlsProperty.description}. At least 1 image.` }],
		inputBinaryFieldsProperty,
		{ inVersion1: false, required: true },
	),
	...outputProperties(PLAN_MODULE_OUTPUT, 'each module item'),
	...inCurrentVersion([
		optionsCollection([
			...planOptions,
			includeOtherFieldsOption,
			productDescriptionProperty,
			...planLists,
		]),
	]),
];

const properties: INodeProperties[] = [...version1, ...currentVersion];

export const description = updateDisplayOptions(
	{ show: { resource: ['aPlusPlan'], operation: ['create'] } },
	properties,
);

const modulesSchema = z
	.array(z.string())
	.min(1, 'choose at least one module')
	.superRefine((modules, context) => {
		const unknown = modules.filter((id) => !A_PLUS_MODULE_IDS.includes(id));
		if (unknown.length) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				message: `unknown module ${unknown.map((id) => `"${id}"`).join(', ')}; known: ${A_PLUS_MODULE_IDS.join(', ')}`,
			});
		}
	});

const optionalCode = (pattern: RegExp, message: string) =>
	z
		.string()
		.trim()
		.refine((value) => value === '' || pattern.test(value), message);

function asList(value: unknown): unknown {
	return typeof value === 'string'
		? value
				.split(',')
				.map((entry) => entry.trim())
				.filter(Boolean)
		: value;
}

/** The spec shows `zh-CN`: the language in lowercase, a two-letter region in uppercase. */
function languageTag(value: string): string {
	return value
		.split('-')
		.map((part, index) =>
			index === 0 ? part.toLowerCase() : part.length === 2 ? part.toUpperCase() : part,
		)
		.join('-');
}

/** Planning holds its request open up to the Timeout (120 s): items overlap rather than queue. */
export const runsConcurrently = true;

interface Parameters {
	fields: IDataObject;
	modules: string[];
	images: ImageInputs;
	timeoutMs: number;
	splitModules: boolean;
	/** Module items carry the plan's images, platform and language for the generation (not in version 1). */
	carryRequest: boolean;
}

/** The Analyze brief of an input item, in whichever of its two fields it came. */
function analysisBrief(json: IDataObject | undefined): string {
	const brief = [json?.formattedText, json?.output_text].find(
		(value): value is string => typeof value === 'string' && value.trim() !== '',
	);
	return brief ?? '';
}

/**
 * The current version starts from the analysis brief of the input item, sends plain text, not a
 * store's HTML or the brief's Markdown, and sends no plan without a description.
 */
function readProductDescription(context: IExecuteFunctions, itemIndex: number): string {
	const typed = String(readField(context, 'productDescription', itemIndex, '')).trim();
	if (isVersion1(context)) return typed;
	const text = plainText(typed || analysisBrief(context.getInputData()[itemIndex]?.json)).trim();
	if (text === '') {
		throw parameterError(
			context,
			itemIndex,
			'Product Description',
			"is empty, and the input item has no 'formattedText' or 'output_text' to take it from",
			"Type what the product is, or connect 'Analysis → Analyze' before this node: when 'Product Description' is empty, its 'formattedText' (or 'output_text') is the description. No request was sent.",
		);
	}
	return text;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	const modules = validateParameter(
		this,
		itemIndex,
		'Modules',
		modulesSchema,
		asList(this.getNodeParameter('modules', itemIndex, [])),
	);
	const market = validateParameter(
		this,
		itemIndex,
		'Market',
		optionalCode(/^[A-Za-z]{2}$/, 'must be a two-letter market code, such as US'),
		readListOrText(this, 'market', itemIndex, ''),
	);
	const language = validateParameter(
		this,
		itemIndex,
		'Language',
		optionalCode(
			/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
			'must be a language code such as en-US or zh-CN',
		),
		readListOrText(this, 'language', itemIndex, ''),
	);
	const timeoutMs = readTimeoutMs(this, itemIndex, timeoutOption);
	const options = readOptions(this, itemIndex);
	const productDescription = readProductDescription(this, itemIndex);
	const platform = String(readListOrText(this, 'platform', itemIndex, '')).trim();
	const images = readImageInputs(this, itemIndex, { min: 1 });

	const fields: IDataObject = { modules };
	if (productDescription) fields.product_description = productDescription;
	if (platform) fields.platform = platform;
	if (market) fields.market = market.toUpperCase();
	if (language) fields.language = languageTag(language);
	const version1 = isVersion1(this);
	// The current version plans one item per module unless told otherwise; version 1 only when told.
	const splitModules = version1 ? options.splitModules === true : options.splitModules !== false;
	return { fields, modules, images, timeoutMs, splitModules, carryRequest: !version1 };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ fields, modules, images, timeoutMs, splitModules, carryRequest }: Parameters,
): Promise<INodeExecutionData[]> {
	const imageUrls = await resolveImageUrls(this, itemIndex, images);
	const body: IDataObject = { image_urls: imageUrls, ...fields };
	const { result: plan, requestId } = await requestResult(
		this,
		{ kind: 'plan', method: 'POST', path: ENDPOINTS.aPlusPlans, body, itemIndex, timeoutMs },
		planSchema,
	);
	if (splitModules) {
		const request: IDataObject = { image_urls: imageUrls };
		for (const key of ['platform', 'market', 'language'])
			if (fields[key] !== undefined) request[key] = fields[key];
		const items = planModuleItems(plan, modules)
			.map((json) => (carryRequest ? { ...json, ...request } : json))
			.map((json) => ({ json: withInputFields(this, itemIndex, json) }));
		return shapeOutput(this, itemIndex, items, PLAN_MODULE_OUTPUT);
	}
	const json = { ...plan, ...(requestId ? { request_id: requestId } : {}) } as IDataObject;
	return [{ json: withInputFields(this, itemIndex, json) }];
}
