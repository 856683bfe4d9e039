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
import { IMAGE_URLS, readImageInputs, resolveImageUrls } from '../../helpers/imageInputs';
import {
	labelOf,
	optionOrDefault,
	parameterError,
	parameterOrDefault,
	propertyIn,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from '../../helpers/parameters';
import { planSchema } from '../../helpers/schemas';
import {
	bundledList,
	DETAILS,
	LANGUAGE_CASING,
	MARKET_CHOICES,
	PLAN_LANGUAGE_CHOICES,
	PLATFORM_CHOICES,
	readListOrText,
	SERVICE_DEFAULT,
	withOther,
} from '../../descriptions/choices';
import { outputProperties, PLAN_MODULE_OUTPUT } from '../../descriptions/output.descriptions';
import { inCurrentVersion, inVersion1, isVersion1 } from '../../descriptions/versions';
import { ANALYSIS_FIELDS, withInputFields } from '../../helpers/inputFields';
import { shapeOutput } from '../../helpers/outputFields';
import type { Wording } from '../../transport';
import { ENDPOINTS, requestResult } from '../../transport';
import {
	detailsCollection,
	imageSourceFields,
	imageUrlsProperty,
	includeOtherFieldsOption,
	inputBinaryFieldsPropertyV1,
	itemsInParallelOption,
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

const moduleTitle = (module: (typeof A_PLUS_MODULES)[number]) =>
	`${titleOf(module.purpose)} (${module.width}×${module.height})`;

const modulesPropertyV1: INodeProperties = {
	displayName: 'Modules',
	name: 'modules',
	type: 'multiOptions',
	required: true,
	default: ['hero', 'core', 'usage'],
	description: 'A+ modules to plan, each with the pixel size its image must fill',
	options: A_PLUS_MODULES.map((module) => ({
		name: moduleTitle(module),
		value: module.id,
		description: `${module.purpose}. Sent as ${module.id}.`,
	})).sort((a, b) => a.name.localeCompare(b.name)),
};

/** What each module shows a shopper: the title already says its purpose and pixel size. */
const MODULE_USES: Record<string, string> = {
	hero: 'Wide banner at the top of the A+ content, the product at its best',
	hero970: 'Top banner in the standard width, for layouts without the premium banner',
	core: 'The main reasons to buy, in one image',
	usage: 'The product in use, in a typical setting',
	angles: 'The product from several sides',
	mood: "A setting that conveys the product's feel",
	detail: 'Close-ups of materials and workmanship',
	brand: "The brand's story, in a tall image beside text",
	size: 'Dimensions, capacity or a size chart, in a small square',
	compare: 'Before and after, or with and without, in a small tall image',
	specs: 'The technical data a shopper compares, laid out as a table',
	process: 'How the product is made',
	accessories: 'What comes in the box, or gifts',
	series: 'Other products of the same line',
	ingredients: 'What the product contains',
	care: 'How to use and look after the product',
	tips: 'Suggestions for use, in a smaller image',
};

/** No modules chosen for the user: each one becomes a billed generation later. */
const modulesProperty: INodeProperties = {
	...modulesPropertyV1,
	default: [],
	description:
		'The A+ modules to plan; each becomes one image later. A common start: Premium First-Screen Key Visual, Core Selling Points, Usage Scenes.',
	options: A_PLUS_MODULES.map((module) => ({
		name: moduleTitle(module),
		value: module.id,
		description: MODULE_USES[module.id] ?? module.purpose,
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
	modulesPropertyV1,
	productDescriptionV1,
	{ ...imageUrlsProperty, description: `${imageUrlsProperty.description}. At least 1 image.` },
	inputBinaryFieldsPropertyV1,
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

/** Where the current version takes the product description from: the Analyze brief by default. */
export const DESCRIPTION_SOURCE = { analysis: 'analysis', define: 'define' } as const;

const descriptionSourceProperty: INodeProperties = {
	displayName: 'Product Description From',
	name: 'descriptionSource',
	type: 'options',
	noDataExpression: true,
	default: 'analysis',
	options: [
		{
			name: 'Analysis of the Input Item',
			value: DESCRIPTION_SOURCE.analysis,
			description: "The brief of an 'Analysis → Analyze' item ('formattedText')",
		},
		{
			name: 'Define Below',
			value: DESCRIPTION_SOURCE.define,
			description: "'Product Description' as typed or dragged below",
		},
	],
	description: 'Where the description of the product comes from; a plan needs one',
};

/** Required where it is the source: a plan needs a description. */
const productDescriptionProperty: INodeProperties = {
	...productDescriptionV1,
	required: true,
	description:
		"What the product is, such as a store's product description dragged here. HTML and Markdown are sent as plain text.",
	displayOptions: { show: { descriptionSource: [DESCRIPTION_SOURCE.define] } },
};

/** A+ content is Amazon's: Amazon is what a plan is for unless another platform is typed. */
export const planPlatformList: INodeProperties[] = withOther(
	{
		displayName: 'Platform',
		name: 'platform',
		type: 'options',
		options: PLATFORM_CHOICES.filter((choice) => choice.value === 'amazon'),
		default: 'amazon',
		description:
			"A+ content is Amazon's, and the modules are its module sizes. Type another platform only if your provider plans A+-style content for it. Defaults to 'Amazon'.",
	},
	{
		placeholder: 'e.g. walmart',
		description: 'The platform as the service knows it, in lowercase',
	},
);

/** What the plan is for: the service is told the platform, the market and the language. */
const planDetails: INodeProperties = detailsCollection('Plan Details', DETAILS.plan, [
	bundledList(planPlatformList),
	bundledList(
		withOther(
			{
				displayName: 'Market',
				name: 'market',
				type: 'options',
				options: [SERVICE_DEFAULT, ...MARKET_CHOICES],
				default: '',
				description: 'Market the plan is for',
			},
			{ placeholder: 'e.g. BE', description: 'A two-letter market code, in any case' },
		),
	),
	bundledList(
		withOther(
			{
				displayName: 'Language',
				name: 'language',
				type: 'options',
				options: [SERVICE_DEFAULT, ...PLAN_LANGUAGE_CHOICES],
				default: '',
				description: 'Language of the plan',
			},
			{
				placeholder: 'e.g. cs-CZ',
				description: `A code such as cs-CZ: the language, a hyphen, the region. ${LANGUAGE_CASING}`,
			},
		),
	),
]);

const planOptions: INodeProperties[] = [
	itemsInParallelOption,
	{
		...splitModulesOption,
		default: true,
		description:
			"Whether to output one item per planned module, with its prompt, the style guide, the notes, its target size and the plan's photos, ready for 'Image → Generate and Wait' with 'Image Settings From' set to 'A+ Module of the Input Item'. Off: the whole plan as one item. Defaults to on.",
	},
	timeoutOption,
];

/** The current version: what every plan needs at the top, the plan's details, then Options. */
const currentVersion: INodeProperties[] = [
	...inCurrentVersion([modulesProperty, descriptionSourceProperty, productDescriptionProperty]),
	...imageSourceFields(
		[{ ...imageUrlsProperty, description: `${imageUrlsProperty.description}. At least 1 image.` }],
		{ inVersion1: false, required: true },
	),
	...inCurrentVersion([planDetails]),
	...outputProperties(PLAN_MODULE_OUTPUT, 'each module item'),
	...inCurrentVersion([optionsCollection([...planOptions, includeOtherFieldsOption])]),
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

/** Every field a module item may have of its own: an input field of such a name stays behind. */
const moduleFields = ['module', ...Object.keys(PLAN_MODULE_OUTPUT.fields)];

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
 * The current version takes the description from where 'Product Description From' says: the
 * brief of the Analyze item before it, or the field (required there). It sends plain text, not a
 * store's HTML or the brief's Markdown, and sends no plan without a description.
 */
function readProductDescription(context: IExecuteFunctions, itemIndex: number): string {
	if (isVersion1(context))
		return String(context.getNodeParameter('productDescription', itemIndex, '')).trim();
	const source = context.getNodeParameter(
		descriptionSourceProperty.name,
		itemIndex,
		descriptionSourceProperty.default,
	);
	if (source === DESCRIPTION_SOURCE.define) {
		const typed = context.getNodeParameter('productDescription', itemIndex, '');
		return validateParameter(
			context,
			itemIndex,
			productDescriptionProperty.displayName,
			z.string().trim().min(1, 'is empty; a plan needs a description of the product'),
			plainText(String(typed ?? '')),
		);
	}
	const brief = plainText(analysisBrief(context.getInputData()[itemIndex]?.json)).trim();
	if (brief === '') {
		throw parameterError(
			context,
			itemIndex,
			descriptionSourceProperty.displayName,
			"the input item has no brief ('formattedText' or 'output_text') of 'Analysis → Analyze'",
			`Connect 'Analysis → Analyze' before this node, or choose 'Define Below' in '${descriptionSourceProperty.displayName}' and type or drag the description. No request was sent.`,
		);
	}
	return brief;
}

/** Platform, market and language where the item's version keeps them; A+ content is Amazon's. */
function readPlanTarget(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const version1 = isVersion1(context);
	const read = (name: string, fallback: string) =>
		readListOrText(context, name, itemIndex, fallback, DETAILS.plan);
	const market = validateParameter(
		context,
		itemIndex,
		labelOf(context, properties, 'market'),
		optionalCode(/^[A-Za-z]{2}$/, 'must be a two-letter market code, such as US'),
		read('market', ''),
	);
	const language = validateParameter(
		context,
		itemIndex,
		labelOf(context, properties, 'language'),
		optionalCode(
			/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
			'must be a language code such as en-US or zh-CN',
		),
		read('language', ''),
	);
	const platform = String(read('platform', version1 ? '' : String(planPlatformList[0].default)));
	const fields: IDataObject = {};
	if (platform.trim()) fields.platform = platform.trim();
	if (market) fields.market = market.toUpperCase();
	if (language) fields.language = languageTag(language);
	return fields;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	const modulesShown = propertyIn(this, properties, 'modules');
	const modules = validateParameter(
		this,
		itemIndex,
		modulesShown.displayName,
		modulesSchema,
		asList(parameterOrDefault(this, itemIndex, modulesShown)),
	);
	const target = readPlanTarget(this, itemIndex);
	const timeoutMs = readTimeoutMs(this, itemIndex, timeoutOption);
	const options = readOptions(this, itemIndex);
	const productDescription = readProductDescription(this, itemIndex);
	const images = readImageInputs(this, itemIndex, { min: 1 });

	const fields: IDataObject = { modules };
	if (productDescription) fields.product_description = productDescription;
	Object.assign(fields, target);
	const version1 = isVersion1(this);
	// The current version plans one item per module unless told otherwise; version 1 only when told.
	const splitModules =
		optionOrDefault(options, propertyIn(this, properties, 'splitModules')) === true;
	return { fields, modules, images, timeoutMs, splitModules, carryRequest: !version1 };
}

/** The labels a refused plan's advice names: the panel field behind each field of the request. */
function planWording(context: IExecuteFunctions): Wording {
	const label = (name: string) => labelOf(context, properties, name);
	return {
		timeout: timeoutOption.displayName,
		fields: {
			product_description: label('productDescription'),
			image_urls: IMAGE_URLS,
			modules: label('modules'),
			platform: label('platform'),
			market: label('market'),
			language: label('language'),
		},
	};
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
		{
			kind: 'plan',
			method: 'POST',
			path: ENDPOINTS.aPlusPlans,
			body,
			itemIndex,
			timeoutMs,
			wording: planWording(this),
		},
		planSchema,
	);
	if (splitModules) {
		const request: IDataObject = { image_urls: imageUrls };
		for (const key of ['platform', 'market', 'language'])
			if (fields[key] !== undefined) request[key] = fields[key];
		// The plan was made from the analysis: its brief is not handed on to every module item.
		const items = planModuleItems(plan, modules, { ownKeys: carryRequest })
			.map((json) => (carryRequest ? { ...json, ...request } : json))
			.map((json) => ({
				json: withInputFields(this, itemIndex, json, [...ANALYSIS_FIELDS, ...moduleFields]),
			}));
		return shapeOutput(this, itemIndex, items, PLAN_MODULE_OUTPUT);
	}
	const json = { ...plan, ...(requestId ? { request_id: requestId } : {}) } as IDataObject;
	return [{ json: withInputFields(this, itemIndex, json, ANALYSIS_FIELDS) }];
}
