import { isHttpUrl } from '../transport/send';
import { isRecord } from '../transport/errors';

/**
 * A string splits on a comma only where the next entry starts a new http(s) address: CDN
 * transformation addresses (`/upload/w_400,h_300/x.jpg`) carry commas of their own.
 */
export function splitImageUrls(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const entries = Array.isArray(value)
		? value.map((entry) => (typeof entry === 'string' ? entry : String(entry)))
		: String(value).split(/\r?\n|,(?=\s*https?:\/\/)/i);
	return entries.map((entry) => entry.trim()).filter((entry) => entry.length > 0);
}

/**
 * Best first: of BigCommerce's sizes the largest (`url_zoom`) serves best; `src` is Shopify's and
 * WooCommerce's, `link` Amazon's, `url` Upload's and Shopify GraphQL's (`originalSrc` its older).
 */
const STORE_IMAGE_URL_KEYS = [
	'src',
	'url_zoom',
	'url_standard',
	'url_thumbnail',
	'url_tiny',
	'link',
	'url',
	'originalSrc',
	'image_url',
	'imageUrl',
	'href',
] as const;

/** Fields that hold a list of images: a product dragged whole, or one marketplace's image set (Amazon). */
const LIST_KEYS = ['images', 'media_gallery_entries'] as const;

const MAX_DEPTH = 6;

export type AddressReading =
	{ ok: true; addresses: string[] } | { ok: false; problem: string; hint: string };

type Unreadable = Extract<AddressReading, { ok: false }>;

const unreadable = (problem: string, hint: string): Unreadable => ({ ok: false, problem, hint });

type Json = Record<string, unknown>;

function addressIn(image: Json): string | undefined {
	for (const key of STORE_IMAGE_URL_KEYS) {
		const value = image[key];
		if (typeof value === 'string' && value.trim() !== '') return value.trim();
	}
	return undefined;
}

/** "$json.images" out of "={{ $json.images }}": the expression to build a suggestion on. */
function draggedExpression(raw: unknown): string | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = /^=\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/.exec(raw);
	return match?.[1];
}

function keyList(image: Json): string {
	const keys = Object.keys(image);
	const shown = keys.slice(0, 12).join(', ');
	return keys.length > 12 ? `${shown}, …` : shown || 'none';
}

/** Magento's `file` is a path below the store's media folder, whose address no field holds. */
function magentoProblem(image: Json, expression: string | undefined): Unreadable | undefined {
	const file = image.file;
	if (typeof file !== 'string' || isHttpUrl(file.trim())) return undefined;
	if (!('media_type' in image) && !('types' in image)) return undefined;
	const list = expression ?? '$json.media_gallery_entries';
	return unreadable(
		`the image "${file}" is a path inside a Magento store, not a URL`,
		`Magento names product images by their path below the store's media folder. Put the store's URL in front: {{ ${list}.map(i => 'https://YOUR-STORE/media/catalog/product' + i.file) }}, with YOUR-STORE your store's host.`,
	);
}

function unknownImage(image: Json, inList: boolean, expression: string | undefined): Unreadable {
	const magento = magentoProblem(image, expression);
	if (magento) return magento;
	const addressKey = Object.keys(image).find(
		(key) => typeof image[key] === 'string' && isHttpUrl(String(image[key]).trim()),
	);
	const problem = `an image object with the fields ${keyList(image)} holds no URL in a field this node reads (${STORE_IMAGE_URL_KEYS.join(', ')})`;
	if (addressKey) {
		const base = expression ?? (inList ? '$json.images' : '$json.image');
		const suggestion = inList
			? `{{ ${base}.map(i => i.${addressKey}) }}`
			: `{{ ${base}.${addressKey} }}`;
		return unreadable(
			problem,
			`Its field '${addressKey}' holds a URL: enter ${suggestion} instead.`,
		);
	}
	return unreadable(
		problem,
		"None of its fields holds an http(s) URL. Drag the field that holds the images themselves (Shopify, WooCommerce and BigCommerce: 'images'; Amazon catalog items: 'images'), or a URL.",
	);
}

/** Amazon's catalog gives each picture (`variant`) in several sizes: the largest stands for it. */
function largestPerVariant(list: unknown[]): unknown[] {
	const variantOf = (entry: unknown) =>
		isRecord(entry) && typeof entry.variant === 'string' ? entry.variant : undefined;
	if (
		list.length < 2 ||
		!list.every(
			(entry) => variantOf(entry) !== undefined && typeof (entry as Json).link === 'string',
		)
	) {
		return list;
	}
	const area = (entry: Json) => (Number(entry.width) || 0) * (Number(entry.height) || 0);
	const chosen = new Map<string, Json>();
	for (const entry of list as Json[]) {
		const variant = entry.variant as string;
		const current = chosen.get(variant);
		if (!current || area(entry) > area(current)) chosen.set(variant, entry);
	}
	return [...chosen.values()];
}

/** What cannot be read comes back instead. */
function collect(
	value: unknown,
	into: string[],
	inList: boolean,
	expression: string | undefined,
	depth: number,
): Unreadable | undefined {
	if (value === undefined || value === null) return undefined;
	if (depth > MAX_DEPTH)
		return unreadable(
			'the images are nested too deeply to read',
			'Drag the list of images itself.',
		);
	if (typeof value === 'string') {
		const text = value.trim();
		if (text.includes('[object Object]')) {
			return unreadable(
				'the expression turned image objects into the text "[object Object]"',
				'Let the expression be the whole field, such as {{ $json.images }} with no text around it: then the node receives the images themselves.',
			);
		}
		if (text !== '') into.push(text);
		return undefined;
	}
	if (Array.isArray(value)) {
		for (const entry of largestPerVariant(value)) {
			const problem = collect(entry, into, true, expression, depth + 1);
			if (problem) return problem;
		}
		return undefined;
	}
	if (isRecord(value)) {
		const address = addressIn(value);
		if (address !== undefined) {
			into.push(address);
			return undefined;
		}
		const listKey = LIST_KEYS.find((key) => Array.isArray(value[key]));
		if (listKey)
			return collect(
				value[listKey],
				into,
				true,
				expression ? `${expression}.${listKey}` : undefined,
				depth + 1,
			);
		return unknownImage(value, inList, expression);
	}
	into.push(String(value));
	return undefined;
}

/** n8n hands over text where an expression made a JSON list or object. */
function parsedJson(text: string): unknown {
	const trimmed = text.trim();
	if (!/^[[{]/.test(trimmed)) return undefined;
	try {
		return JSON.parse(trimmed) as unknown;
	} catch {
		return undefined;
	}
}

/**
 * The image addresses in whatever a drag from the input panel produced. `raw` is the parameter as
 * written (`={{ $json.images }}`), for a suggestion that names the user's own field.
 */
export function readImageAddresses(value: unknown, raw?: unknown): AddressReading {
	const expression = draggedExpression(raw);
	const addresses: string[] = [];
	const json = typeof value === 'string' ? parsedJson(value) : undefined;
	const entries =
		typeof value === 'string' && (json === null || typeof json !== 'object')
			? splitImageUrls(value)
			: [json ?? value];
	for (const entry of entries) {
		const problem = collect(entry, addresses, false, expression, 0);
		if (problem) return problem;
	}
	return { ok: true, addresses: [...new Set(addresses)] };
}
