import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { KEPT_FOR, SYNC_OPERATION_SECONDS } from '../serviceFacts';

// The parameters both versions show alike, the names and types a saved workflow stores, the lists'
// choices, and the shapes the panel is built of; a parameter one version shows otherwise is
// written in that version's folder (v1/, v2/).

/** Stored name, type and default, written once: neither version's panel drifts from the other's. */
export const STORED = {
	inputBinaryFields: {
		name: 'inputBinaryFields',
		type: 'string',
		default: '',
		placeholder: 'e.g. data, data_1',
	},
	binaryPropertyName: {
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		placeholder: 'e.g. data',
	},
	maxConcurrency: {
		name: 'maxConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50 },
		default: 5,
	},
	initialDelay: {
		name: 'initialDelay',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 1 },
		default: 5,
	},
	polling: { name: 'polling', type: 'options', default: 'adaptive' },
	pollInterval: {
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: 5,
	},
	imagesOutput: { name: 'imagesOutput', type: 'options', default: 'perImage' },
	onTimeout: { name: 'onTimeout', type: 'options', default: 'error' },
	extraBodyFields: { name: 'extraBodyFields', type: 'json', default: '{}' },
	planPrompt: {
		name: 'planPrompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. The bottle on a mountain trail at sunrise, wide banner',
	},
	seriesStyleGuide: {
		name: 'seriesStyleGuide',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. Cool blue tones, natural light, clean sans-serif text',
	},
	taskId: {
		name: 'taskId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. task_abc123',
	},
	productDescription: {
		name: 'productDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. Insulated steel water bottle, 750 ml, keeps drinks cold for 24 hours',
	},
} satisfies Record<string, Partial<INodeProperties>>;

export function forOperation(
	resource: string,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return updateDisplayOptions(
		{ show: { resource: [resource], operation: [operation] } },
		properties,
	);
}

/** A collection's entries in alphabetical order, as n8n's guidelines ask. */
export function sortedCollection(
	displayName: string,
	name: string,
	placeholder: string,
	options: INodeProperties[],
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder,
		default: {},
		options: [...options].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	};
}

export const optionsCollection = (options: INodeProperties[]) =>
	sortedCollection('Options', 'options', 'Add Option', options);

export const imageUrlsProperty: INodeProperties = {
	displayName: 'Image URLs',
	name: 'imageUrls',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	placeholder: 'e.g. https://example.com/image.png, https://example.com/image-2.png',
	description:
		"Product photos: drag a store node's 'images' field here (Shopify, WooCommerce, BigCommerce, Amazon catalog items), or enter URLs separated by commas or new lines",
};

export const planImageUrlsProperty: INodeProperties = {
	...imageUrlsProperty,
	description: `${imageUrlsProperty.description}. At least 1 image.`,
};

export const INPUT_BINARY_FIELDS = 'Input Binary Fields';

export const productNameProperty: INodeProperties = {
	displayName: 'Product Name',
	name: 'productName',
	type: 'string',
	default: '',
	placeholder: 'e.g. Insulated steel water bottle, 750 ml',
	description:
		'The product as a shopper would name it; helps the service keep the product recognizable',
};

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 1 },
	default: 120,
	description: `Seconds to wait for the reply. The service works while the request is open; ${SYNC_OPERATION_SECONDS} or more is recommended. Defaults to 120.`,
};

/** Shown only while images are downloaded: with URLs only there is no file to place. */
export const whenDownloading = { hide: { downloadImages: [false] } };

export const maxWaitTimeOption: INodeProperties = {
	displayName: 'Max Wait Time',
	name: 'maxWaitTime',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 1 },
	default: 600,
	description:
		'Seconds after which the wait stops and names the task ID, so it can be resumed. Defaults to 600.',
};

/** Sorted as n8n's guidelines ask of lists; Stop stays the default. */
export const onTimeoutOption: INodeProperties = {
	displayName: 'On Timeout',
	...STORED.onTimeout,
	options: [
		{
			name: 'Output Task State',
			value: 'outputTaskState',
			description:
				"Output the task ID and its last status with 'timed_out' true, so a scheduled workflow can collect it later",
		},
		{ name: 'Stop', value: 'error', description: 'Stop the run and name the task ID' },
	],
	description:
		"What happens when 'Max Wait Time' runs out before the task finishes. Defaults to 'Stop'.",
};

export const downloadImagesOption: INodeProperties = {
	displayName: 'Download Images',
	name: 'downloadImages',
	type: 'boolean',
	default: true,
	description: `Whether to download the images as files. Off: output the image URLs only (valid ${KEPT_FOR}). Defaults to on.`,
};

/** The entries of Options that hold several settings; readOptions spreads them into one object. */
export const OPTION_BUNDLES = { outputFiles: 'outputFiles', waiting: 'waiting' } as const;

/** n8n stops at the first failed item by default, and the billed items' output with it. */
export const KEEP_GOING =
	"To let the other items go on when one fails, set 'On Error' in the node's Settings to 'Continue'.";

/** The first thing every generation's panel says: each item is billed, and how to resume. */
export const billingNotice: INodeProperties = {
	displayName: `Each item submits a generation, which the service bills. ${KEEP_GOING} After a stop, collect with 'Task → Wait for Completion' and the 'task_id' the node reports; 'Retry On Fail' would submit again.`,
	name: 'billingNotice',
	type: 'notice',
	default: '',
};

export const promptProperty: INodeProperties = {
	displayName: 'Prompt',
	name: 'prompt',
	type: 'string',
	typeOptions: { rows: 4 },
	default: '',
	placeholder: 'e.g. White studio background, soft shadow, product centered',
	description: 'What the image should show. A prompt, an image, or both are needed.',
};

export const sellingPointsProperty: INodeProperties = {
	displayName: 'Selling Points',
	name: 'sellingPoints',
	type: 'string',
	typeOptions: { rows: 2 },
	default: '',
	placeholder: 'e.g. Keeps drinks cold for 24 hours; leak-proof lid',
	description:
		'What makes the product worth buying, in a sentence or a list; the image can show or state it',
};

function fileNameOption(description: string): INodeProperties {
	return {
		displayName: 'File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		placeholder: 'e.g. steel-bottle-front',
		description,
	};
}

export const generatedFileNameOption = fileNameOption(
	"Name of each image file, without extension (drag a field such as the product's title here); a task's images are numbered (-1, -2, …) when there are several. Empty: the A+ module's name, else the 'Product Name', else the service's name.",
);

export const downloadFileNameOption = fileNameOption(
	'Name of the output file. Empty: taken from the URL.',
);

export const uploadFieldProperty: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	placeholder: 'e.g. data',
	hint: 'The name of the input binary field holding the image to upload',
};

export const downloadUrlProperty: INodeProperties = {
	displayName: 'URL',
	name: 'url',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. https://example.com/image.png',
	description: `URL of one image: a generated image's URL (valid ${KEPT_FOR}), any image URL, or one image of a store node dragged here`,
};

/** The list entry that lets any other value be typed in a field below the list. */
export const OTHER = 'custom';

export interface OtherField {
	placeholder: string;
	description: string;
}

export function otherFieldName(name: string): string {
	return `custom${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

const SERVICE_DEFAULT: INodePropertyOptions = {
	name: 'Service Default',
	value: '',
	description: 'Send nothing: the service decides',
};

export const OTHER_CHOICE: INodePropertyOptions = { name: 'Other (Type Below)', value: OTHER };

/** Other (Type Below) and its field: what is sent is never a grey example in an empty field. */
export function withOther(list: INodeProperties, other: OtherField): INodeProperties[] {
	const options = [...((list.options ?? []) as INodePropertyOptions[]), OTHER_CHOICE];
	const typed: INodeProperties = {
		displayName: `Other ${list.displayName}`,
		name: otherFieldName(list.name),
		type: 'string',
		default: '',
		placeholder: other.placeholder,
		description: other.description,
		displayOptions: { show: { [list.name]: [OTHER] } },
	};
	return [{ ...list, options }, typed];
}

/** The current version's collections of a request's inputs, so Options holds only how it runs. */
export const DETAILS = { product: 'productDetails', plan: 'planDetails' } as const;
export type Details = (typeof DETAILS)[keyof typeof DETAILS];

/** The one group of a bundle: its stored path is `<collection>.<bundle>.value.<field>`. */
export const BUNDLE_GROUP = 'value';

/**
 * Fields that only make sense together, as one entry of a collection (n8n's pattern: HTTP
 * Request's Options → Response). The group is there from the start, so its fields show at once.
 */
export function bundle(
	displayName: string,
	name: string,
	values: INodeProperties[],
	description?: string,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: false },
		default: { [BUNDLE_GROUP]: {} },
		placeholder: `Add ${displayName}`,
		...(description ? { description } : {}),
		options: [{ displayName, name: BUNDLE_GROUP, values }],
	};
}

export function bundledList(properties: INodeProperties[]): INodeProperties {
	const [list] = properties;
	return bundle(list.displayName, list.name, properties);
}

/** A list whose first entry, and default, is empty and said in words: the service chooses. */
export function serviceDefaultList(
	displayName: string,
	name: string,
	choices: INodePropertyOptions[],
	description: string,
	other: OtherField,
): INodeProperties[] {
	const options = [SERVICE_DEFAULT, ...choices];
	return withOther(
		{ displayName, name, type: 'options', options, default: '', description },
		other,
	);
}

export function platformList(description: string): INodeProperties[] {
	return serviceDefaultList('Platform', 'platform', PLATFORM_CHOICES, description, {
		placeholder: 'e.g. zalando',
		description: 'The platform as the service knows it, in lowercase',
	});
}

/** The code the service receives stays out of the tooltip, as n8n's guidelines ask. */
const LANGUAGES: Array<[string, string]> = [
	['English (US)', 'en-US'],
	['English (UK)', 'en-GB'],
	['German', 'de-DE'],
	['French', 'fr-FR'],
	['Spanish (Spain)', 'es-ES'],
	['Spanish (Mexico)', 'es-MX'],
	['Italian', 'it-IT'],
	['Portuguese (Brazil)', 'pt-BR'],
	['Dutch', 'nl-NL'],
	['Polish', 'pl-PL'],
	['Swedish', 'sv-SE'],
	['Turkish', 'tr-TR'],
	['Arabic', 'ar-AE'],
	['Hindi', 'hi-IN'],
	['Japanese', 'ja-JP'],
	['Korean', 'ko-KR'],
	['Chinese (Simplified)', 'zh-CN'],
	['Chinese (Traditional)', 'zh-TW'],
];

/** In alphabetical order of their names, as n8n's guidelines ask of dropdowns. */
function alphabetical(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

export const OUTPUT_LANGUAGE_CHOICES: INodePropertyOptions[] = alphabetical(
	LANGUAGES.map(([name, code]) => ({ name, value: code.toLowerCase() })),
);

export const PLAN_LANGUAGE_CHOICES: INodePropertyOptions[] = alphabetical(
	LANGUAGES.map(([name, value]) => ({ name, value })),
);

/** Titles lead with the shape, so that the alphabetical order groups them. */
export const SIZE_CHOICES: INodePropertyOptions[] = alphabetical([
	{ name: 'Square 1:1', value: '1:1' },
	{ name: 'Landscape 4:3', value: '4:3' },
	{ name: 'Portrait 3:4', value: '3:4' },
	{ name: 'Landscape 3:2', value: '3:2' },
	{ name: 'Portrait 2:3', value: '2:3' },
	{ name: 'Portrait 4:5 (Social Feed)', value: '4:5' },
	{ name: 'Landscape 5:4', value: '5:4' },
	{ name: 'Widescreen 16:9', value: '16:9' },
	{ name: 'Vertical 9:16 (Stories, Reels)', value: '9:16' },
	{ name: 'Banner 21:9', value: '21:9' },
]);

/** Long side in pixels that each label is taken to give (the spec shows only the label `1k`). */
export const RESOLUTION_LONG_SIDES: ReadonlyArray<[string, number]> = [
	['1k', 1024],
	['2k', 2048],
	['4k', 4096],
];

export const RESOLUTION_CHOICES: INodePropertyOptions[] = RESOLUTION_LONG_SIDES.map(
	([label, side]) => ({
		name: `${label.toUpperCase()} (Long Side About ${side} Pixels)`,
		value: label,
	}),
);

export const PLATFORM_CHOICES: INodePropertyOptions[] = alphabetical(
	[
		['Amazon', 'amazon'],
		['Shopify', 'shopify'],
		['eBay', 'ebay'],
		['Etsy', 'etsy'],
		['Walmart', 'walmart'],
		['TikTok Shop', 'tiktok'],
		['Temu', 'temu'],
		['AliExpress', 'aliexpress'],
		['Shopee', 'shopee'],
		['Lazada', 'lazada'],
		['Mercado Libre', 'mercadolibre'],
		['Taobao', 'taobao'],
		['Tmall', 'tmall'],
		['JD.com', 'jd'],
	].map(([name, value]) => ({ name, value })),
);

export const MARKET_CHOICES: INodePropertyOptions[] = alphabetical(
	[
		['United States', 'US'],
		['Canada', 'CA'],
		['Mexico', 'MX'],
		['Brazil', 'BR'],
		['United Kingdom', 'GB'],
		['Germany', 'DE'],
		['France', 'FR'],
		['Italy', 'IT'],
		['Spain', 'ES'],
		['Netherlands', 'NL'],
		['Sweden', 'SE'],
		['Poland', 'PL'],
		['Turkey', 'TR'],
		['United Arab Emirates', 'AE'],
		['Saudi Arabia', 'SA'],
		['India', 'IN'],
		['Japan', 'JP'],
		['Australia', 'AU'],
		['Singapore', 'SG'],
		['China', 'CN'],
	].map(([name, value]) => ({ name, value })),
);
