import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

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
