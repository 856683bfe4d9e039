import type { IDisplayOptions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import {
	LANGUAGE_CASING,
	OUTPUT_LANGUAGE_CHOICES,
	platformList,
	RESOLUTION_CHOICES,
	SERVICE_DEFAULT,
	SIZE_CHOICES,
	withOther,
} from './choices';
import {
	imageSourceFields,
	imageUrlsProperty,
	includeOtherFieldsOptionV1,
	includeOtherFieldsOption,
	inputBinaryFieldsProperty,
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
		{ placeholder: 'e.g. cs-cz', description: `Language code. ${LANGUAGE_CASING}` },
	),
);

const sizeAndResolution: INodeProperties[] = [
	...withOther(
		{
			displayName: 'Size',
			name: 'size',
			type: 'options',
			options: SIZE_CHOICES,
			default: '1:1',
			description: 'Aspect ratio of the image, width:height',
		},
		{
			placeholder: 'e.g. 61:25',
			description: 'Aspect ratio as width:height, such as 61:25 (1464×600)',
		},
	).map(notShownFromModule),
	...withOther(
		{
			displayName: 'Resolution',
			name: 'resolution',
			type: 'options',
			options: RESOLUTION_CHOICES,
			default: '1k',
			description: 'Resolution label: how large the image is generated',
		},
		{ placeholder: 'e.g. 8k', description: 'Resolution label as the service knows it' },
	).map(notShownFromModule),
];

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

/**
 * The optional fields of a generation, which the current version keeps in Options: inside the collection a
 * condition on Prompt and Size From names it from the top (`/generationSource`).
 */
const generationFieldsInOptions: INodeProperties[] = [
	productNameProperty,
	sellingPointsProperty,
	...platformLists,
	...outputLanguageLists,
].map((property) => {
	const fromTop = (condition?: IDisplayOptions['show']) =>
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
			...(own.show ? { show: fromTop(own.show) } : {}),
			...(own.hide ? { hide: fromTop(own.hide) } : {}),
		},
	};
});

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
		{
			displayName: 'Prompt and Size From',
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
					description: "'Prompt', 'Size' and 'Resolution' as set below",
				},
			],
		},
		{
			displayName:
				"Each input item must be one module item of 'A+ Plan → Create'; empty fields below take the plan's values. To fit each image to its module, add Edit Image (Resize, 'Ignore Aspect Ratio') and drag 'target_width' and 'target_height' into its width and height.",
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
	...imageSourceFields([notShownFromModule(imageUrlsProperty)], inputBinaryFieldsProperty, {
		urlsFromModule: [imageUrlsFromModule],
	}),
	...inVersion1([productNameProperty, sellingPointsProperty]),
	...version1Fields,
	...inCurrentVersion(sizeAndResolution),
];

export const extraBodyFieldsOption: INodeProperties = {
	displayName: 'Extra Body Fields',
	name: 'extraBodyFields',
	type: 'json',
	default: '{}',
	description:
		'A JSON object merged into the request, for service fields this node has no parameter for (see the README)',
};

export const submitTimeoutOption: INodeProperties = {
	...timeoutOption,
	displayName: 'Submit Timeout',
	name: 'submitTimeout',
	default: 60,
	description:
		'Seconds to wait for the service to accept the task. A request that times out is not sent again, since the task may exist. Defaults to 60.',
};

/** The two A+ generation fields the spec names (`plan_prompt`, `series_style_guide`). */
export const aPlusGenerationOptions: INodeProperties[] = [
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
export const maxGenerationsOption: INodeProperties = {
	...maxGenerationsOptionV1,
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'A spending guard: when more items than this come in, the run stops before the first submit, so nothing is billed. Read from the first item. 0: no limit.',
};

export const fileNameOption: INodeProperties = {
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
 * The current version shows the defaults it uses (Initial Delay, Max Generations per Run, Poll
 * Interval), includes the input item's fields unless switched off, and holds the optional product
 * fields.
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
				...(waits ? waitOptions(false) : []),
				...common,
				...file,
				includeOtherFieldsOption,
				maxGenerationsOption,
				...generationFieldsInOptions,
			]),
		]),
	];
}
