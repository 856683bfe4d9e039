import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

import { isVersion1 } from './versions';

/** The list entry that lets any other value be typed in a field below the list. */
export const OTHER = 'custom';

export interface OtherField {
	placeholder: string;
	description: string;
}

/** The name of the field that holds a typed value when the list says Other. */
export function otherFieldName(name: string): string {
	return `custom${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/** The first entry of lists where the service may choose: empty, said in words. */
export const SERVICE_DEFAULT: INodePropertyOptions = {
	name: 'Service Default',
	value: '',
	description: 'Send nothing: the service decides',
};

/**
 * A list of common values, followed by Other (Type Below) and the field that takes any other
 * value: what is sent is never hidden behind a grey example in an empty field.
 */
export function withOther(list: INodeProperties, other: OtherField): INodeProperties[] {
	const options = [
		...((list.options ?? []) as INodePropertyOptions[]),
		{ name: 'Other (Type Below)', value: OTHER, description: 'Enter another value' },
	];
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

/** The Platform list, with Other; `description` says what the platform steers. */
export function platformList(description: string): INodeProperties[] {
	return withOther(
		{
			displayName: 'Platform',
			name: 'platform',
			type: 'options',
			options: [SERVICE_DEFAULT, ...PLATFORM_CHOICES],
			default: '',
			description,
		},
		{
			placeholder: 'e.g. zalando',
			description: 'Platform name as the service knows it, in lowercase',
		},
	);
}

/** The optional fields that the current version keeps in the Options collection, as n8n's guidelines ask. */
export const OPTIONAL_IN_OPTIONS = new Set([
	'productName',
	'sellingPoints',
	'productDescription',
	'platform',
	'outputLanguage',
	'market',
	'language',
]);

/**
 * A field where the item's node version keeps it: in Options in the current version (with its
 * "Other" field beside it), at the top level in version 1. Unset, it reads as `fallback`.
 */
export function readField(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
): unknown {
	const base = name.startsWith('custom') ? name.charAt(6).toLowerCase() + name.slice(7) : name;
	if (!isVersion1(context) && OPTIONAL_IN_OPTIONS.has(base)) {
		const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
		return options[name] ?? fallback;
	}
	return context.getNodeParameter(name, itemIndex, fallback);
}

/**
 * The value of a list field: the typed one when Other is chosen. Without `fallback` the field's
 * own default applies (n8n fills it in); with one, a field hidden for this item reads as it.
 */
export function readChoice(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: string,
): unknown {
	const value = readField(context, name, itemIndex, fallback);
	if (value !== OTHER) return value;
	return readField(context, otherFieldName(name), itemIndex, '');
}

/** The lists hold the value, or Other and a typed one; version 1 stores the text. */
export function readListOrText(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: string,
): unknown {
	return isVersion1(context)
		? context.getNodeParameter(name, itemIndex, fallback)
		: readChoice(context, name, itemIndex, fallback);
}

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

/**
 * One casing rule for languages, as the spec shows each field: a generation's output_language is
 * all lowercase (zh-cn), an A+ plan's language is language-REGION (zh-CN). Typed codes are sent
 * in that form whatever their case.
 */
export const LANGUAGE_CASING =
	"Any case may be typed: a generation's 'Output Language' is sent in lowercase (zh-cn), an A+ plan's 'Language' as language-REGION (zh-CN).";

/** A list entry in words; the code the service receives is its description. */
function named(name: string, code: string): INodePropertyOptions {
	return { name, value: code, description: `Sent as ${code}` };
}

/** In alphabetical order of their names, as n8n's guidelines ask of dropdowns. */
function alphabetical(options: INodePropertyOptions[]): INodePropertyOptions[] {
	return [...options].sort((a, b) => a.name.localeCompare(b.name));
}

export const OUTPUT_LANGUAGE_CHOICES: INodePropertyOptions[] = alphabetical(
	LANGUAGES.map(([name, code]) => named(name, code.toLowerCase())),
);

export const PLAN_LANGUAGE_CHOICES: INodePropertyOptions[] = alphabetical(
	LANGUAGES.map(([name, code]) => named(name, code)),
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
		name: `${label.toUpperCase()} (Long Side About ${side} px)`,
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
	].map(([name, value]) => named(name, value)),
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
	].map(([name, value]) => named(name, value)),
);
