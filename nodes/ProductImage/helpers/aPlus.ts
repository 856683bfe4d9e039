import type { IDataObject } from 'n8n-workflow';

import { decodeEntities } from '../transport/send';
import type { Plan } from './aPlusPlan';

export interface APlusModule {
	id: string;
	purpose: string;
	width: number;
	height: number;
}

export const A_PLUS_MODULES: readonly APlusModule[] = [
	{ id: 'hero', purpose: 'Premium first-screen key visual', width: 1464, height: 600 },
	{ id: 'hero970', purpose: 'Standard first-screen key visual', width: 970, height: 600 },
	{ id: 'core', purpose: 'Core selling points', width: 970, height: 600 },
	{ id: 'usage', purpose: 'Usage scenes', width: 970, height: 600 },
	{ id: 'angles', purpose: 'Multiple angles', width: 970, height: 600 },
	{ id: 'mood', purpose: 'Scene atmosphere', width: 970, height: 600 },
	{ id: 'detail', purpose: 'Product details', width: 970, height: 600 },
	{ id: 'brand', purpose: 'Brand story', width: 463, height: 625 },
	{ id: 'size', purpose: 'Size, capacity or clothing size', width: 220, height: 220 },
	{ id: 'compare', purpose: 'Effect comparison', width: 150, height: 300 },
	{ id: 'specs', purpose: 'Detailed specifications or parameter table', width: 970, height: 600 },
	{ id: 'process', purpose: 'Manufacturing process', width: 970, height: 600 },
	{ id: 'accessories', purpose: 'Accessories or gifts', width: 970, height: 600 },
	{ id: 'series', purpose: 'Product series display', width: 970, height: 600 },
	{ id: 'ingredients', purpose: 'Ingredients', width: 970, height: 600 },
	{ id: 'care', purpose: 'Usage and care instructions', width: 970, height: 600 },
	{ id: 'tips', purpose: 'Usage suggestions', width: 600, height: 450 },
];

export const A_PLUS_MODULE_IDS = A_PLUS_MODULES.map((module) => module.id);

export function findAPlusModule(id: string): APlusModule | undefined {
	return A_PLUS_MODULES.find((module) => module.id === id);
}

function greatestCommonDivisor(a: number, b: number): number {
	return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

/** `970×600` becomes `97:60`: the `size` a following generation request takes. */
export function aspectRatioOf(module: APlusModule): string {
	const divisor = greatestCommonDivisor(module.width, module.height);
	return `${module.width / divisor}:${module.height / divisor}`;
}

/** Fields the service might use to name a planned module; the spec does not show which. */
const MODULE_ID_FIELDS = ['module', 'module_id', 'moduleId', 'id', 'type', 'key', 'name'];

function moduleIdOf(entry: IDataObject, requested: readonly string[]): string | undefined {
	for (const field of MODULE_ID_FIELDS) {
		const value = entry[field];
		if (typeof value === 'string' && requested.includes(value)) return value;
	}
	return undefined;
}

/** A product's identity on an item: a module's own field of such a name is the module's. */
const IDENTITY_FIELDS = ['id', 'title', 'name'];

/** `ownKeys`: so that a product's identity on the item (Include Other Input Fields) stays the product's. */
function entryFields(entry: IDataObject, ownKeys: boolean): IDataObject {
	if (!ownKeys) return entry;
	return Object.fromEntries(
		Object.entries(entry).map(([name, value]) => [
			IDENTITY_FIELDS.includes(name) && entry[`module_${name}`] === undefined
				? `module_${name}`
				: name,
			value,
		]),
	);
}

/** Ready for a Generate node. Modules the service does not name are matched by position. */
export function planModuleItems(
	plan: Plan,
	requested: readonly string[],
	{ ownKeys = false }: { ownKeys?: boolean } = {},
): IDataObject[] {
	return plan.modules.map((entry, index) => {
		const moduleId = moduleIdOf(entry as IDataObject, requested) ?? requested[index];
		const known = moduleId === undefined ? undefined : findAPlusModule(moduleId);
		return {
			...entryFields(entry as IDataObject, ownKeys),
			module: moduleId ?? null,
			module_index: index,
			purpose: known?.purpose ?? null,
			target_width: known?.width ?? null,
			target_height: known?.height ?? null,
			target_size: known ? `${known.width}x${known.height}` : null,
			aspect_ratio: known ? aspectRatioOf(known) : null,
			recommended_prompt: entry.recommended_prompt,
			global_style: (plan.global_style ?? null) as IDataObject['global_style'],
			notes: (plan.notes ?? null) as IDataObject['notes'],
		};
	});
}

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

/** A module as its list entry names it: its purpose, then the pixel size its image must fill. */
export const moduleTitle = (module: (typeof A_PLUS_MODULES)[number]) =>
	`${titleOf(module.purpose)} (${module.width}×${module.height})`;

const looksLikeHtml = (text: string) => /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i.test(text);

/** A store's product description (Shopify's body_html) as plain text; text without tags as it came. */
export function htmlToText(text: string): string {
	if (!looksLikeHtml(text)) return text;
	return decodeEntities(
		text
			.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
			.replace(/<!--[\s\S]*?-->/g, '')
			// A store's source breaks lines between list items: the item's own line is enough.
			.replace(/<\/li\s*>\s*(?=<)/gi, '')
			.replace(/\s*<li(\s[^>]*)?>/gi, '\n- ')
			.replace(/<br\s*\/?>/gi, '\n')
			.replace(/<\/t[dh]\s*>/gi, ' ')
			.replace(/<\/(p|div|ul|ol|h[1-6]|tr|table|section|article)\s*>/gi, '\n')
			.replace(/<[^>]+>/g, ''),
	)
		.replace(/[ \t\f\v\u00a0]+/g, ' ')
		.replace(/ *\n */g, '\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** The Analyze brief is Markdown. A heading's closing # marks follow a space: "C#" keeps its #. */
function markdownToText(text: string): string {
	return text
		.replace(/^[ \t]*(`{3,}|~{3,}).*$/gm, '')
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
		.replace(/^[ \t]*#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm, '$1')
		.replace(/^[ \t]*>[ \t]?/gm, '')
		.replace(/^[ \t]*([-*_])([ \t]*\1){2,}[ \t]*$/gm, '')
		.replace(/^([ \t]*)(?:[-*+]|\d+[.)])[ \t]+/gm, '$1')
		.replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
		.replace(/(^|[^\w*])([*_])(?=\S)([^*_\n]*?\S)\2(?![\w*])/g, '$1$3')
		.replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
		.replace(/`([^`\n]+)`/g, '$1')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}

/** A product text from an input item (a store's HTML, the Analyze brief's Markdown) as plain text. */
export function plainText(text: string): string {
	return markdownToText(htmlToText(text.replace(/\r\n?/g, '\n')));
}
