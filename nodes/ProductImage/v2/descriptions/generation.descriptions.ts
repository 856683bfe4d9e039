import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	billingNotice,
	bundledList,
	DETAILS,
	generatedFileNameOption,
	imageUrlsProperty,
	optionsCollection,
	OUTPUT_LANGUAGE_CHOICES,
	platformList,
	productNameProperty,
	promptProperty,
	RESOLUTION_CHOICES,
	sellingPointsProperty,
	serviceDefaultList,
	SIZE_CHOICES,
	STORED,
	timeoutOption,
	withOther,
} from '../../descriptions/common.descriptions';
import {
	detailsCollection,
	imageSourceFields,
	includeOtherFieldsOption,
	submitsInParallelOption,
	waitOptions,
} from './options.descriptions';

export const GENERATION_SOURCE = { module: 'aPlusModule', define: 'define' } as const;

/** Conditions on Image Settings From: inside a collection they name it from the top. */
function conditionsOn(source: string) {
	return {
		notFromModule: { hide: { [source]: [GENERATION_SOURCE.module] } },
		onlyFromModule: { show: { [source]: [GENERATION_SOURCE.module] } },
	};
}

const { notFromModule, onlyFromModule } = conditionsOn('generationSource');
const inCollection = conditionsOn('/generationSource');

function notShownFromModule(property: INodeProperties): INodeProperties {
	return { ...property, displayOptions: { ...property.displayOptions, ...notFromModule } };
}

/**
 * A list (and its Other field) of a collection whose empty entry, from a module item, takes the
 * plan's value: the same parameter, other words.
 */
function planDefaultFromModule(
	[list, other]: INodeProperties[],
	planValue: string,
): INodeProperties[] {
	const [empty, ...rest] = (list.options ?? []) as INodePropertyOptions[];
	const description = `The module item's ${planValue}; nothing is sent when the plan has none`;
	const fromPlan = { ...empty, name: 'From the A+ Plan', description };
	const own = list.displayOptions ?? {};
	const show = { ...(own.show ?? {}), ...inCollection.onlyFromModule.show };
	return [
		{ ...list, displayOptions: { ...own, ...inCollection.notFromModule } },
		{ ...list, options: [fromPlan, ...rest], displayOptions: { ...own, show } },
		other,
	];
}

/** Image URLs as a module item reads it: empty is the photos the plan was made from. */
const imageUrlsFromModule: INodeProperties = {
	...imageUrlsProperty,
	description:
		"Empty: the photos the A+ plan was made from. To send others, drag a store node's images field here or enter URLs.",
	displayOptions: onlyFromModule,
};

const platformLists: INodeProperties[] = planDefaultFromModule(
	platformList('Sales platform whose image rules the service follows'),
	'platform',
);

const outputLanguageLists: INodeProperties[] = planDefaultFromModule(
	serviceDefaultList(
		'Output Language',
		'outputLanguage',
		OUTPUT_LANGUAGE_CHOICES,
		'Language of any text in the image',
		{
			placeholder: 'e.g. cs-CZ',
			description:
				'The language and region of the text in the image, such as cs-CZ for Czech in Czechia; upper or lower case alike',
		},
	),
	'language',
);

/** The stored `size` is an aspect ratio and says so: "size" then always means pixels. */
const sizeAndResolution: INodeProperties[] = [
	...withOther(
		{
			displayName: 'Aspect Ratio',
			name: 'size',
			type: 'options',
			options: SIZE_CHOICES,
			default: '1:1',
			description:
				"Shape of the image, width:height. A store's product images: usually 'Square 1:1'. A+ modules: choose 'A+ Module of the Input Item' in 'Image Settings From', which sets it per module.",
		},
		{
			placeholder: 'e.g. 61:25',
			description: 'Width:height, such as 61:25 for a 1464x600 banner',
		},
	).map(notShownFromModule),
	...withOther(
		{
			displayName: 'Resolution',
			name: 'resolution',
			type: 'options',
			options: RESOLUTION_CHOICES,
			default: '1k',
			description:
				'How large the image is generated, by its long side. Fit it to an exact size afterwards with an Edit Image node.',
			// Shown under the field: the common target, sourced from Shopify's help (docs/decisions.md).
			hint: "Shopify product images: 'Square 1:1' at '2K (Long Side About 2048 Pixels)' (Shopify suggests 2048x2048 px)",
		},
		{ placeholder: 'e.g. 8k', description: 'A resolution label the service knows, such as 8k' },
	).map(notShownFromModule),
];

/** Each list and its Other field are one entry, shown together once added. */
const productDetails: INodeProperties = detailsCollection('Product Details', DETAILS.product, [
	productNameProperty,
	sellingPointsProperty,
	bundledList(platformLists),
	bundledList(outputLanguageLists),
]);

/** Analyze tells the service the product's name the same way. */
export const analysisProductDetails: INodeProperties = detailsCollection(
	'Product Details',
	DETAILS.product,
	[productNameProperty],
);

export const generationSourceProperty: INodeProperties = {
	displayName: 'Image Settings From',
	name: 'generationSource',
	type: 'options',
	noDataExpression: true,
	default: 'define',
	options: [
		{
			name: 'A+ Module of the Input Item',
			value: GENERATION_SOURCE.module,
			description:
				"The input item is one module of 'A+ Plan → Create': its prompt, the plan's style guide, the module's aspect ratio and a resolution that covers its pixel size",
		},
		{
			name: 'Define Below',
			value: GENERATION_SOURCE.define,
			description: "'Prompt', 'Aspect Ratio' and 'Resolution' as set below",
		},
	],
	description: "Where each image's 'Prompt', 'Aspect Ratio' and 'Resolution' come from",
};

export const generationProperties: INodeProperties[] = [
	billingNotice,
	generationSourceProperty,
	{
		displayName:
			"Each input item must be one module item of 'A+ Plan → Create'; empty fields below take the plan's values. To fit each image to its module, add an Edit Image node ('Resize', 'Ignore Aspect Ratio') and drag 'target_width' and 'target_height' into its 'Width' and 'Height'.",
		name: 'moduleSourceNotice',
		type: 'notice',
		default: '',
		displayOptions: onlyFromModule,
	},
	{ ...promptProperty, displayOptions: notFromModule },
	...imageSourceFields([notShownFromModule(imageUrlsProperty), imageUrlsFromModule]),
	...sizeAndResolution,
	productDetails,
];

const otherServiceFieldsOption: INodeProperties = {
	displayName: 'Other Service Fields',
	...STORED.extraBodyFields,
	description:
		'Fields the service accepts that this node has no field for, typed as names and values in braces, e.g. {"seed": 7}, as its documentation names them: they are added to what the node sends (<a href="https://github.com/n8n-nodes-product-image/n8n-nodes-product-image/blob/main/docs/operations.md" target="_blank">more info</a>)',
};

/** How long the service has to accept a generation, without the jargon; the stored name stays. */
const acceptanceTimeoutOption: INodeProperties = {
	...timeoutOption,
	displayName: 'Acceptance Timeout',
	name: 'submitTimeout',
	default: 60,
	description:
		"Seconds the service has to answer that it took each generation (its task ID), before any wait for the images, which is 'Max Wait Time'. One that runs out is not sent again, since the service may have taken it. Defaults to 60.",
};

/** `plan_prompt`, `series_style_guide`: only from a module item, to replace what it carries. */
const aPlusOverrideOptions: INodeProperties[] = [
	{
		displayName: 'Module Prompt',
		...STORED.planPrompt,
		description: "Replaces the module item's prompt ('recommended_prompt') for every item",
		displayOptions: inCollection.onlyFromModule,
	},
	{
		displayName: 'Style Guide',
		...STORED.seriesStyleGuide,
		description:
			"Replaces the plan's style guide ('global_style') that keeps all module images alike",
		displayOptions: inCollection.onlyFromModule,
	},
];

/** The spending guard, showing the limit that applies when the option is not added: none (0). */
const maxGenerationsOption: INodeProperties = {
	displayName: 'Max Generations per Run',
	name: 'maxGenerations',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		"A spending guard: when more items than this come in, the run stops before the first generation is sent, so nothing is billed. The first item's value counts for all. Defaults to 0 (no limit).",
};

/** Generate and Wait adds the wait options (Items in Parallel among them) and File Name; Submit
 * Generation (No Wait) has its own Items in Parallel, one item at a time unless set. */
export function generationOptions(waits: boolean): INodeProperties[] {
	return [
		optionsCollection([
			...(waits ? waitOptions(false, generatedFileNameOption) : [submitsInParallelOption]),
			...aPlusOverrideOptions,
			otherServiceFieldsOption,
			acceptanceTimeoutOption,
			includeOtherFieldsOption,
			maxGenerationsOption,
		]),
	];
}
