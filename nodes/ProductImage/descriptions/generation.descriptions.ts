import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	bundledList,
	DETAILS,
	LANGUAGE_CASING,
	OUTPUT_LANGUAGE_CHOICES,
	platformList,
	RESOLUTION_CHOICES,
	SERVICE_DEFAULT,
	SIZE_CHOICES,
	withOther,
} from './choices';
import {
	detailsCollection,
	imageSourceFields,
	imageUrlsProperty,
	includeOtherFieldsOptionV1,
	includeOtherFieldsOption,
	optionsCollection,
	platformProperty,
	productNameProperty,
	timeoutOption,
	waitOptionsV1,
	waitOptions,
} from './common.descriptions';
import { inCurrentVersion, inVersion1 } from './versions';

export const GENERATION_SOURCE = { module: 'aPlusModule', define: 'define' } as const;

const notFromModule = { hide: { generationSource: [GENERATION_SOURCE.module] } };
const onlyFromModule = { show: { generationSource: [GENERATION_SOURCE.module] } };

function notShownFromModule(property: INodeProperties): INodeProperties {
	return { ...property, displayOptions: { ...property.displayOptions, ...notFromModule } };
}

/**
 * From a module item an empty field means the plan's value, not the service's default: the same
 * parameter (same name, same stored value) is shown with words that say so.
 */
function shownFromModule(
	property: INodeProperties,
	changes: Partial<INodeProperties>,
): INodeProperties[] {
	const own = property.displayOptions ?? {};
	return [
		notShownFromModule(property),
		{
			...property,
			...changes,
			displayOptions: { ...own, show: { ...(own.show ?? {}), ...onlyFromModule.show } },
		},
	];
}

/** A list whose empty entry, from a module item, takes the plan's value. */
function planDefaultFromModule(list: INodeProperties, planValue: string): INodeProperties[] {
	const [empty, ...rest] = (list.options ?? []) as INodePropertyOptions[];
	return shownFromModule(list, {
		options: [
			{
				...empty,
				name: 'From the A+ Plan',
				description: `The module item's ${planValue}; nothing is sent when the plan has none`,
			},
			...rest,
		],
	});
}

function planDefaultListsFromModule(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => {
		if (property.name === 'platform') return planDefaultFromModule(property, 'platform');
		if (property.name === 'outputLanguage') return planDefaultFromModule(property, 'language');
		return [property];
	});
}

/** Image URLs as a module item reads it: empty is the photos the plan was made from. */
const imageUrlsFromModule: INodeProperties = {
	...imageUrlsProperty,
	description:
		"Empty: the photos the A+ plan was made from. To send others, drag a store node's images field here or enter URLs.",
	displayOptions: onlyFromModule,
};

/** Version 1's free-text fields, kept as saved workflows store them. */
const version1Fields: INodeProperties[] = inVersion1([
	platformProperty,
	{
		displayName: 'Size',
		name: 'size',
		type: 'string',
		default: '1:1',
		placeholder: 'e.g. 16:9',
		description: 'Aspect ratio as width:height, such as 1:1, 4:3 or 16:9',
	},
	{
		displayName: 'Resolution',
		name: 'resolution',
		type: 'string',
		default: '1k',
		placeholder: 'e.g. 2k',
		description: 'Resolution label, such as 1k or 2k',
	},
	{
		displayName: 'Output Language',
		name: 'outputLanguage',
		type: 'string',
		default: '',
		placeholder: 'e.g. en-us',
		description:
			'Language of any text in the image, lowercase with a hyphen (en-us, zh-cn). Empty: the service decides.',
	},
]);

/** Lists of the common values, each with Other for any value the list lacks. */
const platformLists: INodeProperties[] = planDefaultListsFromModule(
	platformList('Sales platform whose image rules the service follows'),
);

const outputLanguageLists: INodeProperties[] = planDefaultListsFromModule(
	withOther(
		{
			displayName: 'Output Language',
			name: 'outputLanguage',
			type: 'options',
			options: [SERVICE_DEFAULT, ...OUTPUT_LANGUAGE_CHOICES],
			default: '',
			description: 'Language of any text in the image',
		},
		{
			placeholder: 'e.g. cs-cz',
			description: `A code such as cs-cz: the language, a hyphen, the region. ${LANGUAGE_CASING}`,
		},
	),
);

/**
 * The stored `size` is an aspect ratio, so the current version says so; "size" then always means
 * pixels (an A+ module's size, 'target_width'). Store listings and A+ modules are the common targets.
 */
const sizeAndResolution: INodeProperties[] = [
	...withOther(
		{
			displayName: 'Aspect Ratio',
			name: 'size',
			type: 'options',
			options: SIZE_CHOICES,
			default: '1:1',
			description:
				"Shape of the image, width:height. A store's product images: usually Square 1:1. A+ modules: choose 'A+ Module of the Input Item' above, which sets it per module.",
		},
		{
			placeholder: 'e.g. 61:25',
			description: 'Width:height, such as 61:25 for a 1464×600 banner',
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
			hint: "Shopify product images: 'Square 1:1' at 2K (Shopify suggests 2048 × 2048 px)",
		},
		{ placeholder: 'e.g. 8k', description: 'A resolution label the service knows, such as 8k' },
	).map(notShownFromModule),
];

/** The label of `size` as each version shows it, for the texts that name it. */
export const SIZE_LABEL = {
	version1: version1Fields.find((property) => property.name === 'size')?.displayName ?? '',
	current: sizeAndResolution[0].displayName,
};

const sellingPointsProperty: INodeProperties = {
	displayName: 'Selling Points',
	name: 'sellingPoints',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	placeholder: 'e.g. Keeps drinks cold for 24 hours; leak-proof lid',
	description:
		'What makes the product worth buying, in a sentence or a list; the image can show or state it',
};

/** Inside a collection a condition on Image Settings From names it from the top (`/generationSource`). */
function fromTop(property: INodeProperties): INodeProperties {
	const rename = (condition?: IDisplayOptions['show']) =>
		condition &&
		Object.fromEntries(
			Object.entries(condition).map(([key, value]) => [
				key === 'generationSource' ? '/generationSource' : key,
				value,
			]),
		);
	const own = property.displayOptions;
	if (!own) return property;
	return {
		...property,
		displayOptions: {
			...(own.show ? { show: rename(own.show) } : {}),
			...(own.hide ? { hide: rename(own.hide) } : {}),
		},
	};
}

/**
 * The current version's Product Details: what the service is told about the product, apart from
 * how the node runs. Each list and its Other field are one entry, shown together once added.
 */
const productDetails: INodeProperties = detailsCollection('Product Details', DETAILS.product, [
	productNameProperty,
	sellingPointsProperty,
	bundledList(platformLists.map(fromTop)),
	bundledList(outputLanguageLists.map(fromTop)),
]);

/** Analyze tells the service the product's name the same way. */
export const analysisProductDetails: INodeProperties = detailsCollection(
	'Product Details',
	DETAILS.product,
	[productNameProperty],
);

/** Where a generation's prompt, aspect ratio and resolution come from (the current version). */
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
	description: 'Where the prompt, the aspect ratio and the resolution of each image come from',
};

/** The submit parameters shared by Generate and Generate and Wait. */
export const generationProperties: INodeProperties[] = [
	{
		displayName:
			"Each item submits a generation, which the service bills. To resume after a stop, use 'Task → Wait for Completion' with the task ID the node reports; 'Retry On Fail' would submit again.",
		name: 'billingNotice',
		type: 'notice',
		default: '',
	},
	...inCurrentVersion([
		generationSourceProperty,
		{
			displayName:
				"Each input item must be one module item of 'A+ Plan → Create'; empty fields below take the plan's values. To fit each image to its module, add an Edit Image node ('Resize', 'Ignore Aspect Ratio') and drag 'target_width' and 'target_height' into its 'Width' and 'Height'.",
			name: 'moduleSourceNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { generationSource: [GENERATION_SOURCE.module] } },
		},
	]),
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. White studio background, soft shadow, product centered',
		description: 'What the image should show. A prompt, an image, or both are needed.',
		displayOptions: notFromModule,
	},
	...imageSourceFields([notShownFromModule(imageUrlsProperty)], {
		urlsFromModule: [imageUrlsFromModule],
	}),
	...inVersion1([productNameProperty, sellingPointsProperty]),
	...version1Fields,
	...inCurrentVersion([...sizeAndResolution, productDetails]),
];

export const extraBodyFieldsOption: INodeProperties = {
	displayName: 'Extra Body Fields',
	name: 'extraBodyFields',
	type: 'json',
	default: '{}',
	description:
		'A JSON object merged into the request, for service fields this node has no parameter for (see the README)',
};

/** The same pass-through in the service's users' words, with the page that lists what it is for. */
export const otherServiceFieldsOption: INodeProperties = {
	...extraBodyFieldsOption,
	displayName: 'Other Service Fields',
	description:
		'Fields the service accepts that this node has no field for, as a JSON object of names and values from its documentation: they are added to what the node sends (<a href="https://github.com/n8n-nodes-product-image/n8n-nodes-product-image/blob/main/docs/operations.md" target="_blank">more info</a>)',
};

export const submitTimeoutOption: INodeProperties = {
	...timeoutOption,
	displayName: 'Submit Timeout',
	name: 'submitTimeout',
	default: 60,
	description:
		'Seconds to wait for the service to accept the task. A request that times out is not sent again, since the task may exist. Defaults to 60.',
};

/** Submit Timeout without the jargon (the current version); the stored name stays. */
const acceptanceTimeoutOption: INodeProperties = {
	...submitTimeoutOption,
	displayName: 'Acceptance Timeout',
	description:
		'Seconds the service has to accept each generation. One that times out is not sent again, since the service may have taken it. Defaults to 60.',
};

/** The two A+ generation fields the spec names (`plan_prompt`, `series_style_guide`), as version 1 shows them. */
const aPlusGenerationOptions: INodeProperties[] = [
	{
		displayName: 'Plan Prompt',
		name: 'planPrompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. The bottle on a mountain trail at sunrise, wide banner',
		description:
			"The module's prompt from 'A+ Plan → Create', which the service follows for an A+ image",
	},
	{
		displayName: 'Series Style Guide',
		name: 'seriesStyleGuide',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. Cool blue tones, natural light, clean sans-serif text',
		description: "The plan's style guide from 'A+ Plan → Create', so every module image matches",
	},
];

/**
 * The current version fills both from the A+ module item: they show only there, as a way to
 * replace what the item carries, in the words of the module item's fields.
 */
const aPlusOverrideOptions: INodeProperties[] = [
	{
		...aPlusGenerationOptions[0],
		displayName: 'Module Prompt',
		description: "Replaces the module item's prompt ('recommended_prompt') for every item",
		displayOptions: { show: { '/generationSource': [GENERATION_SOURCE.module] } },
	},
	{
		...aPlusGenerationOptions[1],
		displayName: 'Style Guide',
		description:
			"Replaces the plan's style guide ('global_style') that keeps all module images alike",
		displayOptions: { show: { '/generationSource': [GENERATION_SOURCE.module] } },
	},
];

export const maxGenerationsOptionV1: INodeProperties = {
	displayName: 'Max Generations per Run',
	name: 'maxGenerations',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 10,
	description:
		'A spending guard: when more items than this come in, the run stops before the first submit, so nothing is billed. Read from the first item. Without this option there is no limit.',
};

/** The current version shows the limit that applies when the option is not added: none (0). */
const maxGenerationsOption: INodeProperties = {
	...maxGenerationsOptionV1,
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'A spending guard: when more items than this come in, the run stops before the first generation is sent, so nothing is billed. Read from the first item. Defaults to 0 (no limit).',
};

const fileNameOption: INodeProperties = {
	displayName: 'File Name',
	name: 'fileName',
	type: 'string',
	default: '',
	placeholder: 'e.g. steel-bottle-front',
	description:
		"Name of each image file, without extension (drag a field such as the product's title here); a task's images are numbered (-1, -2, …) when there are several. Empty: the A+ module's name, else the 'Product Name', else the service's name.",
};

/**
 * The Options of Submit Generation; Generate and Wait adds the wait options and File Name.
 * The current version shows the defaults it uses (First Check After, Max Generations per Run,
 * Check Interval), includes the input item's fields unless switched off, bundles the settings
 * that belong together (Output Files, Waiting) and keeps the product's details apart.
 */
export function generationOptions(waits: boolean): INodeProperties[] {
	const common = [...aPlusGenerationOptions, extraBodyFieldsOption, submitTimeoutOption];
	const file = waits ? [fileNameOption] : [];
	return [
		...inVersion1([
			optionsCollection([
				...(waits ? waitOptionsV1 : []),
				...common,
				...file,
				includeOtherFieldsOptionV1,
				maxGenerationsOptionV1,
			]),
		]),
		...inCurrentVersion([
			optionsCollection([
				...(waits ? waitOptions(false, fileNameOption) : []),
				...aPlusOverrideOptions,
				otherServiceFieldsOption,
				acceptanceTimeoutOption,
				includeOtherFieldsOption,
				maxGenerationsOption,
			]),
		]),
	];
}
