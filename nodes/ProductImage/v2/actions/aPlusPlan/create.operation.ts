import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { z } from 'zod';

import {
	bundledList,
	DETAILS,
	forOperation,
	MARKET_CHOICES,
	optionsCollection,
	PLAN_LANGUAGE_CHOICES,
	planImageUrlsProperty,
	PLATFORM_CHOICES,
	serviceDefaultList,
	STORED,
	timeoutOption,
	withOther,
} from '../../../descriptions/common.descriptions';
import { A_PLUS_MODULES, moduleTitle, planModuleItems, plainText } from '../../../helpers/aPlus';
import type { PlanRequest } from '../../../helpers/aPlusPlan';
import { buildPlanRequest, requestPlan } from '../../../helpers/aPlusPlan';
import {
	panelProperty,
	parameterError,
	parameterOrDefault,
	validateParameter,
	withInputFields,
} from '../../../helpers/parameters';
import {
	detailsCollection,
	imageSourceFields,
	includeOtherFieldsOption,
	itemsInParallelOption,
} from '../../descriptions/options.descriptions';
import { outputProperties, PLAN_MODULE_OUTPUT } from '../../descriptions/output.descriptions';
import { readChoice, shapeOutput, shownImageFields } from '../../reading';
import { planReview, REVIEW_FIELDS } from '../../review';

export { hintInputFieldsAside as afterRun } from '../../../helpers/parameters';
export { includeOtherFieldsOption as inputFieldsOption };

/** The fields of an 'Analysis → Analyze' item: what a plan is made from, not handed on. */
const ANALYSIS_FIELDS: readonly string[] = [
	'analysis',
	'formattedText',
	'output_text',
	'request_id',
	...REVIEW_FIELDS,
];

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

/** One term per thing: the spec's "Product details" module would share the collection's name. */
const MODULE_TITLES: Record<string, string> = { detail: 'Close-Ups of Details (970×600)' };

/** n8n's filter matches titles only: the code the output's 'module' holds, the size as 'target_size'. */
const listTitle = (module: (typeof A_PLUS_MODULES)[number]) =>
	(MODULE_TITLES[module.id] ?? moduleTitle(module)).replace(
		/\((\d+)×(\d+)\)$/,
		`(${module.id.charAt(0).toUpperCase()}${module.id.slice(1)}, $1x$2)`,
	);

/** No modules chosen for the user: each one becomes a billed generation later. */
const modulesProperty: INodeProperties = {
	displayName: 'Modules',
	name: 'modules',
	type: 'multiOptions',
	required: true,
	default: [],
	description:
		"The A+ modules to plan; each becomes one image later. A common start: 'Premium First-Screen Key Visual (Hero, 1464x600)', 'Core Selling Points (Core, 970x600)', 'Usage Scenes (Usage, 970x600)'.",
	options: A_PLUS_MODULES.map((module) => ({
		name: listTitle(module),
		value: module.id,
		description: MODULE_USES[module.id] ?? module.purpose,
	})).sort((a, b) => a.name.localeCompare(b.name)),
};

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

const productDescriptionProperty: INodeProperties = {
	displayName: 'Product Description',
	...STORED.productDescription,
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

const planDetails: INodeProperties = detailsCollection('Plan Details', DETAILS.plan, [
	bundledList(planPlatformList),
	bundledList(
		serviceDefaultList('Market', 'market', MARKET_CHOICES, 'Market the plan is for', {
			placeholder: 'e.g. BE',
			description: 'A two-letter market code, in any case',
		}),
	),
	bundledList(
		serviceDefaultList('Language', 'language', PLAN_LANGUAGE_CHOICES, 'Language of the plan', {
			placeholder: 'e.g. cs-CZ',
			description:
				"The plan's language and region, such as cs-CZ for Czech in Czechia; upper or lower case alike",
		}),
	),
]);

const planOptions: INodeProperties[] = [
	itemsInParallelOption,
	{
		displayName: 'One Item per Module',
		name: 'splitModules',
		type: 'boolean',
		default: true,
		description:
			"Whether to output one item per planned module, with its prompt, the style guide, the notes, its target size and the plan's photos, ready for 'Image → Generate and Wait' with 'Image Settings From' set to 'A+ Module of the Input Item'. Off: the whole plan as one item. Defaults to on.",
	},
	timeoutOption,
];

const properties: INodeProperties[] = [
	modulesProperty,
	descriptionSourceProperty,
	productDescriptionProperty,
	...imageSourceFields([planImageUrlsProperty], { required: true }),
	planDetails,
	...outputProperties(PLAN_MODULE_OUTPUT, 'each module item'),
	optionsCollection([...planOptions, includeOtherFieldsOption]),
];

/** Every field a module item may have of its own: an input field of such a name goes under 'input_fields'. */
const moduleFields = ['module', ...Object.keys(PLAN_MODULE_OUTPUT.fields)];

/** The Analyze brief of an input item, in whichever of its two fields it came. */
function analysisBrief(json: IDataObject | undefined): string {
	const brief = [json?.formattedText, json?.output_text].find(
		(value): value is string => typeof value === 'string' && value.trim() !== '',
	);
	return brief ?? '';
}

/** Plain text, not a store's HTML or the brief's Markdown; no plan is sent without one. */
function readProductDescription(context: IExecuteFunctions, itemIndex: number): string {
	const source = parameterOrDefault(context, itemIndex, descriptionSourceProperty);
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

export const description = forOperation('aPlusPlan', 'create', properties);

/** Planning holds its request open up to the Timeout (120 s): items overlap rather than queue. */
export const runsConcurrently = true;

/** Plan Details' lists, their Other values taken and Platform's default applied. */
export function readParameters(this: IExecuteFunctions, itemIndex: number): PlanRequest {
	const list = (name: string) =>
		readChoice(this, name, itemIndex, {
			properties,
			fallback: String(panelProperty(properties, name).default),
			details: DETAILS.plan,
		});
	return buildPlanRequest(this, itemIndex, properties, {
		market: list('market'),
		language: list('language'),
		platform: list('platform'),
		productDescription: readProductDescription(this, itemIndex),
		imageFields: shownImageFields(this, itemIndex),
	});
}

/** Module items carry the plan's images, platform and language on to the generation. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	request: PlanRequest,
): Promise<INodeExecutionData[]> {
	const { plan, imageUrls } = await requestPlan(this, itemIndex, request);
	const modules = planModuleItems(plan, request.modules, { ownKeys: true });
	const review = planReview(modules, plan.notes, plan.global_style);
	if (!request.splitModules) {
		const json = { ...plan, ...review } as IDataObject;
		return [
			{
				json: withInputFields(this, itemIndex, json, includeOtherFieldsOption, {
					consumed: ANALYSIS_FIELDS,
				}),
			},
		];
	}
	const carried: IDataObject = { image_urls: imageUrls };
	for (const key of ['platform', 'market', 'language'])
		if (request.fields[key] !== undefined) carried[key] = request.fields[key];
	// The plan was made from the analysis: its brief is not handed on to every module item.
	const items = modules.map((json) => ({
		json: withInputFields(
			this,
			itemIndex,
			{ ...json, ...carried, ...review },
			includeOtherFieldsOption,
			{ ownNames: moduleFields, consumed: ANALYSIS_FIELDS },
		),
	}));
	return shapeOutput(this, itemIndex, items, PLAN_MODULE_OUTPUT);
}
