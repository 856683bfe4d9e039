import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { imageUrlsProperty, INPUT_BINARY_FIELDS } from '../descriptions/common.descriptions';
import { isRecord } from '../transport/errors';
import { ENDPOINTS, requestResult } from '../transport/request';
import { isHttpUrl } from '../transport/send';
import { parameterError, parameterOrDefault } from './parameters';

const uploadedImageSchema = z
	.object({
		id: z.string().min(1),
		url: z.string().url(),
		expiresAt: z.string().optional(),
	})
	.passthrough();

// n8n-workflow 2.x's BINARY_IN_JSON_PROPERTY and BINARY_MODE_COMBINED: n8n 1.x's has neither.
const FILES_PROPERTY = '_files';
const FILES_PREFIX = `${FILES_PROPERTY}.`;
const COMBINED = 'combined';

/** A name, a path in the item's JSON, or the binary combined mode left on the item (memory storage). */
type BinaryReference = string | IBinaryData;

/** n8n 1.x has neither the setting nor getWorkflowSettings on every context. */
function isCombinedBinaryMode(context: IExecuteFunctions): boolean {
	if (typeof context.getWorkflowSettings !== 'function') return false;
	return context.getWorkflowSettings()?.binaryMode === COMBINED;
}

function isBinaryValue(value: unknown): value is IBinaryData {
	return (
		typeof value === 'object' &&
		value !== null &&
		'mimeType' in value &&
		('data' in value || 'id' in value)
	);
}

/** `_files.data` → `data`: the field's name whichever form the operator typed. */
function binaryFieldName(typed: string): string {
	return typed.startsWith(FILES_PREFIX) ? typed.slice(FILES_PREFIX.length) : typed;
}

/** The names an operator can type for the item's files: by name, or by path (`_files.data`). */
function binaryFieldsOfItem(context: IExecuteFunctions, itemIndex: number): string[] {
	const item = context.getInputData()[itemIndex];
	const onItem = Object.keys(item?.binary ?? {});
	const files = item?.json?.[FILES_PROPERTY];
	const inJson =
		typeof files === 'object' && files !== null && !Array.isArray(files)
			? Object.entries(files as IDataObject)
					.filter(([, value]) => isBinaryValue(value))
					.map(([name]) => `${FILES_PREFIX}${name}`)
			: [];
	return [...onItem, ...inJson];
}

/** What the operator typed, in the forms n8n's helpers resolve in this binary mode. */
function candidates(
	context: IExecuteFunctions,
	itemIndex: number,
	typed: string,
): BinaryReference[] {
	const name = binaryFieldName(typed);
	if (!isCombinedBinaryMode(context)) return typed === name ? [typed] : [typed, name];
	const paths = typed === name ? [typed, `${FILES_PREFIX}${typed}`] : [typed];
	// Combined mode on memory storage leaves files on the item, beyond a path's reach.
	const leftOnItem = context.getInputData()[itemIndex]?.binary?.[name];
	return leftOnItem ? [...paths, leftOnItem] : paths;
}

/** Through n8n's own resolution (`assertBinaryData`), in either binary mode. */
function findBinaryField(context: IExecuteFunctions, itemIndex: number, typed: string) {
	for (const reference of candidates(context, itemIndex, typed)) {
		try {
			return { reference, binary: context.helpers.assertBinaryData(itemIndex, reference) };
		} catch {
			// Not in this form: the next one, or the caller's error that lists the item's files.
		}
	}
	return undefined;
}

/** The error lists the files the item carries, wherever they are. */
function assertBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
) {
	const found = findBinaryField(context, itemIndex, fieldName);
	if (found) return found;
	const available = binaryFieldsOfItem(context, itemIndex);
	throw new NodeOperationError(
		context.getNode(),
		`'${parameter}': the input item has no binary field '${fieldName}'`,
		{
			itemIndex,
			description: available.length
				? `Binary fields on this item: ${available.join(', ')}. Enter one of them.`
				: 'This item carries no files. Put a node that outputs files (HTTP Request, Read/Write Files, a store node) before this one.',
		},
	);
}

/** The upload holds about the file's size in memory, three times it in memory mode (`npm run bench`). */
async function readInputFile(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): Promise<{ blob: Blob; fileName: string }> {
	const { reference, binary } = assertBinaryField(context, itemIndex, fieldName, parameter);
	const parts: Uint8Array[] = [];
	if (binary.id) {
		const stream = await context.helpers.getBinaryStream(binary.id);
		for await (const chunk of stream as AsyncIterable<Uint8Array>) parts.push(chunk);
	} else {
		parts.push(await context.helpers.getBinaryDataBuffer(itemIndex, reference));
	}
	const mimeType = binary.mimeType || 'application/octet-stream';
	const extension = binary.fileExtension ? `.${binary.fileExtension}` : '';
	return {
		blob: new Blob(parts, { type: mimeType }),
		fileName: binary.fileName || `${binaryFieldName(fieldName)}${extension}`,
	};
}

/** Checked to be on the item before anything is sent. */
export function readUploadField(
	context: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
): string {
	const field = String(parameterOrDefault(context, itemIndex, property)).trim();
	assertBinaryField(context, itemIndex, field, property.displayName);
	return field;
}

export async function uploadBinaryField(
	context: IExecuteFunctions,
	itemIndex: number,
	fieldName: string,
	parameter: string,
): Promise<z.infer<typeof uploadedImageSchema>> {
	const file = await readInputFile(context, itemIndex, fieldName, parameter);
	const form = new FormData();
	form.append('file', file.blob, file.fileName);
	const { result } = await requestResult(
		context,
		{
			kind: 'upload',
			method: 'POST',
			path: ENDPOINTS.upload,
			body: form,
			itemIndex,
			wording: { fields: { file: parameter } },
		},
		uploadedImageSchema,
	);
	return result;
}

/** `data, data_1` as `['data', 'data_1']`: the names of Input Binary Fields, or of A+ modules. */
export function splitCommaSeparated(value: unknown): string[] {
	if (typeof value !== 'string') return [];
	return value
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name.length > 0);
}

export const IMAGE_URLS = imageUrlsProperty.displayName;

/** The addresses an image parameter holds; what cannot be read is the parameter's error. */
export function imageAddressesOf(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	value: unknown,
	raw: unknown,
): string[] {
	const reading = readImageAddresses(value, raw);
	if (reading.ok) return reading.addresses;
	throw parameterError(
		context,
		itemIndex,
		parameter,
		reading.problem,
		`${reading.hint} No request was sent.`,
	);
}

/** The image fields a version's panel shows for the item, and what to do when too few came. */
export interface ShownImageFields {
	labels: string[];
	tooFewAdvice: string;
}

/** As a panel without an 'Images From' choice (or with Both chosen) shows them. */
export const BOTH_IMAGE_FIELDS: ShownImageFields = {
	labels: [IMAGE_URLS, INPUT_BINARY_FIELDS],
	tooFewAdvice:
		'Enter image URLs, or name the binary fields of the input item that hold the product photos.',
};

export interface ImageInputs {
	urls: string[];
	binaryFields: string[];
	count: number;
}

/** Checked without sending anything, so every parameter error comes before the first request. */
export function readImageInputs(
	context: IExecuteFunctions,
	itemIndex: number,
	shown: ShownImageFields,
	limits: { min?: number; max?: number } = {},
): ImageInputs {
	const urls = imageAddressesOf(
		context,
		itemIndex,
		IMAGE_URLS,
		context.getNodeParameter('imageUrls', itemIndex, ''),
		context.getNode().parameters.imageUrls,
	);
	const invalid = urls.find((url) => !isHttpUrl(url));
	if (invalid !== undefined) {
		throw parameterError(
			context,
			itemIndex,
			IMAGE_URLS,
			`"${invalid}" is not an http(s) URL`,
			`'${IMAGE_URLS}' takes URLs that start with https:// (or http://), or a store item's 'images' field dragged from the input panel. No request was sent.`,
		);
	}
	const binaryFields = splitCommaSeparated(
		context.getNodeParameter('inputBinaryFields', itemIndex, ''),
	);
	const count = urls.length + binaryFields.length;
	const both = shown.labels.map((name) => `'${name}'`).join(' and ');
	if (limits.min !== undefined && count < limits.min) {
		throw parameterError(
			context,
			itemIndex,
			both,
			`at least ${limits.min} image is needed, ${count} given`,
			shown.tooFewAdvice,
		);
	}
	if (limits.max !== undefined && count > limits.max) {
		throw parameterError(
			context,
			itemIndex,
			both,
			`at most ${limits.max} images are allowed, ${count} given`,
		);
	}
	for (const field of binaryFields)
		assertBinaryField(context, itemIndex, field, INPUT_BINARY_FIELDS);
	return { urls, binaryFields, count };
}

export async function resolveImageUrls(
	context: IExecuteFunctions,
	itemIndex: number,
	inputs: ImageInputs,
): Promise<string[]> {
	const uploaded: string[] = [];
	for (const field of inputs.binaryFields) {
		uploaded.push((await uploadBinaryField(context, itemIndex, field, INPUT_BINARY_FIELDS)).url);
	}
	return [...inputs.urls, ...uploaded];
}

/** Split on a comma only before an http(s) address: CDN addresses (`/w_400,h_300/x.jpg`) carry commas. */
export function splitImageUrls(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const entries = Array.isArray(value)
		? value.map((entry) => (typeof entry === 'string' ? entry : String(entry)))
		: String(value).split(/\r?\n|,(?=\s*https?:\/\/)/i);
	return entries.map((entry) => entry.trim()).filter((entry) => entry.length > 0);
}

// Best first: BigCommerce's largest size (`url_zoom`); `src` Shopify's and WooCommerce's, `link`
// Amazon's, `url` Upload's and Shopify GraphQL's (`originalSrc` its older).
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
	const isVariant = (entry: unknown) =>
		isRecord(entry) && typeof entry.variant === 'string' && typeof entry.link === 'string';
	if (list.length < 2 || !list.every(isVariant)) return list;
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

/** Whatever a drag produced; `raw` (`={{ $json.images }}`) lets a suggestion name the user's field. */
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
