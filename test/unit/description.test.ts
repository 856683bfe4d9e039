import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { NodeHelpers, type INode, type INodeProperties } from 'n8n-workflow';

import { ProductImageApi } from '../../credentials/ProductImageApi.credentials';

const description = new ProductImage().description;

function subtitleFor(resource: string, operation: string): string {
	const expression = String(description.subtitle)
		.replace(/^=\{\{/, '')
		.replace(/\}\}$/, '');
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	return new Function('$parameter', `return ${expression}`)({ resource, operation }) as string;
}

test('the canvas subtitle reads as words for every operation', () => {
	expect(subtitleFor('image', 'generateAndWait')).toBe('Generate and Wait · Image');
	expect(subtitleFor('image', 'generate')).toBe('Submit Generation (No Wait) · Image');
	expect(subtitleFor('aPlusPlan', 'create')).toBe('Create · A+ Plan');
	expect(subtitleFor('task', 'wait')).toBe('Wait for Completion · Task');
});

test('version 1: the output-field and images-output options show only while images are downloaded', () => {
	// Version 1's Options, where these options sit side by side (the current version bundles them).
	const options = description.properties.find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.operation?.includes('generateAndWait') &&
			property.displayOptions?.show?.['@version']?.includes(1),
	);
	const children = (options?.options ?? []) as INodeProperties[];
	const shown = (downloadImages: boolean) => {
		const values = { resource: 'image', operation: 'generateAndWait', options: { downloadImages } };
		return children
			.filter((child) =>
				NodeHelpers.displayParameterPath(values, child, 'options', { typeVersion: 1 }, description),
			)
			.map((child) => child.name);
	};
	expect(shown(true)).toEqual(
		expect.arrayContaining(['binaryPropertyName', 'imagesOutput', 'maxWaitTime']),
	);
	expect(shown(false)).not.toContain('binaryPropertyName');
	expect(shown(false)).not.toContain('imagesOutput');
	expect(shown(false)).toContain('maxWaitTime');
});

test('resources are listed in alphabetical order; Image stays the default', () => {
	const resource = description.properties.find((property) => property.name === 'resource');
	const names = (resource?.options ?? []).map((option) => (option as { name: string }).name);
	expect(names).toEqual(['A+ Plan', 'Analysis', 'Image', 'Task']);
	expect(resource?.default).toBe('image');
});

/** Every text the panel shows of a parameter, its options and its collection's options. */
function panelTexts(property: INodeProperties, where: string): Array<[string, string]> {
	const texts: Array<[string, string]> = [];
	const add = (field: string, value: unknown) => {
		if (typeof value === 'string' && value) texts.push([`${where} ${field}`, value]);
	};
	add('displayName', property.displayName);
	add('description', property.description);
	add('hint', property.hint);
	// A collection's placeholder is its button ("Add Option"), not an example.
	if (property.type !== 'collection' && property.type !== 'fixedCollection')
		add('placeholder', property.placeholder);
	const values = (property as { values?: INodeProperties[] }).values ?? [];
	for (const value of values) texts.push(...panelTexts(value, `${where} → ${value.name}`));
	for (const option of (property.options ?? []) as unknown as Array<Record<string, unknown>>) {
		if ('displayName' in option) {
			texts.push(
				...panelTexts(option as unknown as INodeProperties, `${where} → ${String(option.name)}`),
			);
		} else {
			add(`option ${String(option.value)} name`, option.name);
			add(`option ${String(option.value)} description`, option.description);
			add(`option ${String(option.value)} action`, option.action);
		}
	}
	return texts;
}

const everyText = [
	...description.properties.flatMap((property) => panelTexts(property, property.name)),
	...new ProductImageApi().properties.flatMap((property) => panelTexts(property, property.name)),
	['node description', description.description] as [string, string],
];

test('no field name of the service in the panel, one word for a URL, and US spelling', () => {
	const api =
		/recommended_prompt|global_style|plan_prompt|series_style_guide|formattedText|output_text|image_urls|task_id|body_html|\borigin\b|\bspec\b/;
	const words =
		/\baddress(es)?\b|http\(s\)|bearer token|centred|recognis|colour|catalogue|behaviour/i;
	// An output field the user drags is named in single quotes ('target_width'); that is allowed.
	const unquoted = (text: string) => text.replace(/(^|[\s(])'[^']*'(?=[\s),.:;]|$)/g, '$1');
	const found = everyText.filter(
		([, text]) => api.test(unquoted(text)) || words.test(text) || /task id\b/.test(text),
	);
	expect(found).toEqual([]);
});

test('every placeholder of a text field reads as an example', () => {
	const placeholders = everyText.filter(([where]) => where.endsWith(' placeholder'));
	expect(placeholders.length).toBeGreaterThan(20);
	expect(placeholders.filter(([, text]) => !text.startsWith('e.g. '))).toEqual([]);
});

test('every free-text field without a value of its own shows an example', () => {
	const bare = description.properties.filter(
		(property) =>
			property.type === 'string' &&
			property.default === '' &&
			!property.name.startsWith('custom') &&
			!property.placeholder,
	);
	expect(bare.map((property) => property.name)).toEqual([]);
});

test('actions are a verb and what it acts on, without articles', () => {
	const actions = everyText.filter(([where]) => where.endsWith(' action'));
	expect(actions.length).toBe(8);
	expect(actions.filter(([, text]) => /(^|\s)(a|an|the)\s/i.test(text))).toEqual([]);
});

test('list entries are words in Title Case; the code sent is in their description', () => {
	const names = everyText.filter(([where]) => / option .* name$/.test(where));
	const code = /: [a-z0-9-]+\b/i;
	expect(names.filter(([, name]) => code.test(name))).toEqual([]);
	// Short words stay lowercase in Title Case; a brand keeps its own spelling (eBay).
	const small = new Set([
		'a',
		'an',
		'the',
		'and',
		'or',
		'of',
		'for',
		'in',
		'to',
		'per',
		'with',
		'from',
		'px',
	]);
	const lowercase = (name: string) =>
		name.split(/[\s(),/]+/).some((word) => /^[a-z]+$/.test(word) && !small.has(word));
	expect(names.filter(([, name]) => lowercase(name))).toEqual([]);
});

test("options collections are in alphabetical order, as n8n's guidelines ask", () => {
	const collections = description.properties.filter((property) => property.type === 'collection');
	expect(collections.length).toBeGreaterThan(5);
	for (const collection of collections) {
		const names = (collection.options as INodeProperties[]).map((option) => option.displayName);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	}
});

test('the required Modules field comes first in A+ Plan → Create', () => {
	for (const typeVersion of description.version as number[]) {
		const node = { typeVersion, parameters: {} } as unknown as INode;
		const values = { resource: 'aPlusPlan', operation: 'create' };
		const shown = description.properties.filter(
			(property) =>
				property.name !== 'resource' &&
				property.name !== 'operation' &&
				NodeHelpers.displayParameter(values, property, node, description),
		);
		expect(shown[0].name).toBe('modules');
	}
});
