import type {
	IDataObject,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { titleCase } from 'title-case';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { OTHER, otherFieldName } from '../../nodes/ProductImage/descriptions/common.descriptions';
import {
	PLAN_MODULE_OUTPUT,
	TASK_IMAGE_OUTPUT,
	TASK_OUTPUT,
} from '../../nodes/ProductImage/v2/descriptions/output.descriptions';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';
import { INPUT_FIELDS_ASIDE } from '../../nodes/ProductImage/helpers/parameters';
import { NEXT_STEP } from '../../nodes/ProductImage/helpers/task';
import type { ShownParameter } from '../harness/panelWalk';
import { walkShown } from '../harness/panelWalk';

// The rules of n8n's UX guidelines, its node UI design page and its verification guidelines that a
// program can judge, checked on the panel the current version shows: every parameter of every
// operation, with every choice that reveals more (Other, the A+ module source, Images From, …).
// Each check is a function that lists what breaks its rule; below, each one is shown to catch a
// violation planted in a copy of the description, so none of them can pass by looking at nothing.

const codex = require('../../nodes/ProductImage/ProductImage.node.json') as {
	nodeVersion: string;
	codexVersion: string;
	categories: string[];
};

type Description = INodeTypeDescription;

/** `values` with `value` stored at `path` (`productDetails.platform.value.platform`). */
function setAt(values: IDataObject, path: string, value: string): IDataObject {
	const copy = JSON.parse(JSON.stringify(values)) as IDataObject;
	const keys = path.split('.');
	let here = copy;
	for (const key of keys.slice(0, -1)) {
		if (typeof here[key] !== 'object' || here[key] === null) here[key] = {};
		here = here[key] as IDataObject;
	}
	here[keys[keys.length - 1]] = value;
	return copy;
}

/** Choices that reveal parameters: each operation is walked with each of them. */
const OTHER_CHOSEN: IDataObject = [
	'size',
	'resolution',
	'productDetails.platform.value.platform',
	'productDetails.outputLanguage.value.outputLanguage',
	'planDetails.platform.value.platform',
	'planDetails.market.value.market',
	'planDetails.language.value.language',
].reduce((values, path) => setAt(values, path, OTHER), {} as IDataObject);

const SWITCHES: IDataObject[] = [
	{},
	{ generationSource: 'aPlusModule' },
	{ imageSource: 'binary' },
	{ imageSource: 'both' },
	{ descriptionSource: 'define' },
	{ output: 'selected' },
	OTHER_CHOSEN,
];

function operationsOf(description: Description): Array<{ resource: string; operation: string }> {
	const resources = description.properties.find((property) => property.name === 'resource');
	return ((resources?.options ?? []) as INodePropertyOptions[]).flatMap((resource) =>
		description.properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource.value),
			)
			.flatMap((property) => property.options as INodePropertyOptions[])
			.map((operation) => ({
				resource: String(resource.value),
				operation: String(operation.value),
			})),
	);
}

interface Seen extends ShownParameter {
	/** 'resource/operation' where it is shown. */
	where: string;
}

/** Every parameter the current version shows, once per operation that shows it. */
function currentPanel(description: Description): Seen[] {
	const seen: Seen[] = [];
	for (const { resource, operation } of operationsOf(description)) {
		const where = `${resource}/${operation}`;
		const known = new Set<INodeProperties>();
		for (const switches of SWITCHES) {
			const values = { resource, operation, ...switches } as INodeParameters;
			for (const shown of walkShown(description, CURRENT, values)) {
				if (known.has(shown.property)) continue;
				known.add(shown.property);
				seen.push({ ...shown, where });
			}
		}
	}
	return seen;
}

const optionsOf = (property: INodeProperties) =>
	property.type === 'options' || property.type === 'multiOptions'
		? ((property.options ?? []) as INodePropertyOptions[])
		: [];

const groupsOf = (property: INodeProperties) =>
	property.type === 'fixedCollection' ? (property.options as INodePropertyCollection[]) : [];

const label = (seen: Seen) =>
	`${seen.where} ${seen.path ? `${seen.path}.` : ''}${seen.property.name}`;

/** n8n's lint leaves these lowercase: URLs, kebab-case, versions, image extensions, "…or". */
function allowedLowercase(text: string): boolean {
	return (
		text.toLowerCase().endsWith('or') ||
		/^https?:\/\//.test(text) ||
		/^[a-z0-9]+(-[a-z0-9]+)+$/.test(text) ||
		['bmp', 'tiff', 'gif', 'jpg', 'jpeg', 'png', 'webp'].includes(text)
	);
}

/** Every text a tooltip, hint, info box or list entry shows, sentence case by n8n's rules. */
function sentenceTexts(panel: Seen[]): Array<[string, string]> {
	const texts: Array<[string, string]> = [];
	for (const seen of panel) {
		const { property } = seen;
		if (property.type === 'notice') texts.push([label(seen), property.displayName]);
		if (property.description) texts.push([label(seen), property.description]);
		if (property.hint) texts.push([`${label(seen)} hint`, property.hint]);
		for (const option of optionsOf(property))
			if (option.description)
				texts.push([`${label(seen)} → ${String(option.value)}`, option.description]);
	}
	return texts;
}

const STOP_WORDS = new Set(
	'a an the of in on to for and or as such is its it this that with by from per its'.split(' '),
);
const words = (text: string) =>
	text
		.toLowerCase()
		.split(/[^a-z0-9+]+/)
		.filter((word) => word && !STOP_WORDS.has(word));

/**
 * The service's request fields (the spec's request tables) that are API words, not words of the
 * service's interface; and its reply fields a user meets only as output. A label never says them.
 */
const API_FIELDS = [
	'plan_prompt',
	'series_style_guide',
	'product_info',
	'image_urls',
	'output_language',
	'product_name',
	'product_description',
	'recommended_prompt',
	'global_style',
	'formattedText',
	'output_text',
	'task_id',
];
const asLabel = (field: string) =>
	field
		.replace(/([a-z])([A-Z])/g, '$1 $2')
		.split('_')
		.map((word) => word.charAt(0).toUpperCase() + word.slice(1))
		.join(' ');
/**
 * Words that are request fields too but are the words of the service's interface and n8n's
 * (Prompt, Image URLs, Aspect Ratio, Resolution, Output Language, Product Name, Product
 * Description, Modules, Platform, Market, Language): allowed by design.
 */
const NATURAL = new Set([
	'Image URLs',
	'Output Language',
	'Product Name',
	'Product Description',
	'Image Urls',
]);

const JARGON =
	/\b(poll(ing)?|concurrency|submit|body|payload|endpoint|request|params?|http|json)\b/i;

/** The parameters a run cannot do without, per operation, shown with a required mark. */
const REQUIRED: Record<string, Array<[IDataObject, string]>> = {
	'image/upload': [[{}, 'binaryPropertyName']],
	'image/download': [[{}, 'url']],
	'task/get': [[{}, 'taskId']],
	'task/wait': [[{}, 'taskId']],
	'analysis/analyze': [
		[{}, 'imageUrls'],
		[{ imageSource: 'binary' }, 'inputBinaryFields'],
	],
	'aPlusPlan/create': [
		[{}, 'modules'],
		[{}, 'imageUrls'],
		[{ imageSource: 'binary' }, 'inputBinaryFields'],
		[{ descriptionSource: 'define' }, 'productDescription'],
	],
};

const named = (name: string) => (property: INodeProperties) => property.name === name;

/** Names a text may quote besides the panel's own: output fields a user drags, and n8n's. */
const QUOTABLE = new Set([
	...[TASK_IMAGE_OUTPUT, TASK_OUTPUT, PLAN_MODULE_OUTPUT].flatMap((shape) => [
		shape.key,
		...Object.keys(shape.fields),
		...shape.simplified,
	]),
	'formattedText',
	'output_text',
	INPUT_FIELDS_ASIDE,
	// The values of 'outcome' an IF node compares.
	...Object.values(NEXT_STEP),
	'data',
	'data_0',
	'data_1',
	// n8n's own labels and values: node settings and Edit Image's Resize.
	'Retry On Fail',
	'On Error',
	'Continue',
	'Resize',
	'Ignore Aspect Ratio',
	'Width',
	'Height',
	'Option',
	'Maximum Area',
]);

/** The names a text quotes ('Max Wait Time'), not the apostrophes of "the product's". */
const quotedNames = (text: string) =>
	[...text.matchAll(/(?:^|[\s(])'([^']+)'(?=[\s),.:;]|$)/g)].map((match) => match[1]);

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 'Resource → Operation' for every operation of the panel. */
function operationNames(description: Description): string[] {
	const resources = (description.properties.find(named('resource'))?.options ??
		[]) as INodePropertyOptions[];
	return operationsOf(description).map(({ resource, operation }) => {
		const resourceName = resources.find((option) => option.value === resource)?.name;
		const operationName = description.properties
			.filter(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource),
			)
			.flatMap((property) => property.options as INodePropertyOptions[])
			.find((option) => option.value === operation)?.name;
		return `${resourceName} → ${operationName}`;
	});
}

/**
 * The names the current panel shows: operations, labels and list entries. A text may point at
 * another operation's field ('A+ Module of the Input Item' of 'Image → Generate and Wait').
 */
function panelNames(description: Description): Set<string> {
	const panel = currentPanel(description);
	return new Set([
		...operationNames(description),
		...panel
			.filter(({ property }) => property.type !== 'notice')
			.map(({ property }) => property.displayName),
		...panel.flatMap(({ property }) => optionsOf(property).map((option) => option.name)),
	]);
}

/** What a text may quote: the panel's names, output fields and n8n's own. */
const quotableNames = (description: Description) =>
	new Set([...QUOTABLE, ...panelNames(description)]);

const checks: Record<string, (description: Description) => string[]> = {
	'labels and list titles are Title Case, as title-case (n8n’s lint) writes them': (
		description,
	) => {
		const wrong: string[] = [];
		const check = (where: string, text: string) => {
			if (!allowedLowercase(text) && titleCase(text) !== text) wrong.push(`${where}: ${text}`);
		};
		for (const seen of currentPanel(description)) {
			if (seen.property.type !== 'notice') check(label(seen), seen.property.displayName);
			for (const group of groupsOf(seen.property)) check(label(seen), group.displayName);
			for (const option of optionsOf(seen.property)) check(label(seen), option.name);
		}
		return wrong;
	},

	'tooltips, hints and info boxes are sentence case; one sentence has no final period, several end with one':
		(description) =>
			sentenceTexts(currentPanel(description))
				.filter(([, text]) => {
					const first = text.charAt(0);
					const sentenceCase = first === first.toUpperCase() || /^['"0-9<]/.test(first);
					const sentences = text.replace(/e\.g\./g, '').split('. ').length;
					return !sentenceCase || (sentences === 1 ? text.endsWith('.') : !text.endsWith('.'));
				})
				.map(([where, text]) => `${where}: ${text}`),

	'placeholders are examples ("e.g. …"); a collection’s is its button ("Add …"); every empty text field has one':
		(description) =>
			currentPanel(description)
				.filter(({ property }) => {
					const { placeholder, type } = property;
					if (type === 'collection' || type === 'fixedCollection')
						return !String(placeholder).startsWith('Add ');
					if (type !== 'string' && type !== 'json') return false;
					if (placeholder !== undefined) return !placeholder.startsWith('e.g. ');
					return type === 'string' && property.default === '' && !property.typeOptions?.password;
				})
				.map((seen) => `${label(seen)}: ${String(seen.property.placeholder)}`),

	'lists, collections and groups are in alphabetical order (the empty first and Other last excepted)':
		(description) => {
			const unsorted: string[] = [];
			const sorted = (names: string[]) =>
				names.join('|') === [...names].sort((a, b) => a.localeCompare(b)).join('|');
			for (const seen of currentPanel(description)) {
				const { property } = seen;
				// The empty entry (Service Default, From the A+ Plan) is first because it is the default
				// and sends nothing; Other (Type Below) is last because it reveals a field below.
				const entries = optionsOf(property).filter(
					(option, index, all) =>
						!(index === 0 && option.value === '') &&
						!(index === all.length - 1 && option.value === OTHER),
				);
				if (!sorted(entries.map((option) => option.name))) unsorted.push(label(seen));
				if (property.type === 'collection') {
					const names = (property.options as INodeProperties[]).map((child) => child.displayName);
					if (!sorted(names)) unsorted.push(label(seen));
				}
				if (!sorted(groupsOf(property).map((group) => group.displayName)))
					unsorted.push(label(seen));
			}
			return unsorted;
		},

	'no list entry’s description repeats its title or gives the value sent': (description) => {
		const repeating: string[] = [];
		for (const seen of currentPanel(description)) {
			for (const option of optionsOf(seen.property)) {
				const text = option.description;
				if (!text) continue;
				const norm = (value: string) => value.toLowerCase().trim();
				const known = new Set([...words(option.name), ...words(String(option.value))]);
				const own = words(text.replace(/^The /, '').replace(/\.$/, ''));
				if (
					norm(text.replace(/^The /, '').replace(/\.$/, '')) === norm(option.name) ||
					/^Sent as /.test(text) ||
					/^The output field '/.test(text) ||
					text === 'Enter another value' ||
					own.every((word) => known.has(word))
				)
					repeating.push(`${label(seen)} → ${option.name}: ${text}`);
			}
		}
		return repeating;
	},

	'no label is an API field of the service, says an API word, or is jargon': (description) =>
		currentPanel(description)
			.filter(({ property }) => property.type !== 'notice')
			.flatMap((seen) => [
				seen.property.displayName,
				...groupsOf(seen.property).map((g) => g.displayName),
			])
			.filter(
				(text) =>
					(API_FIELDS.some((field) => asLabel(field) === text) && !NATURAL.has(text)) ||
					/\b[a-z]+(?:_[a-z0-9]+)+\b/.test(text) ||
					JARGON.test(text),
			),

	'an Other choice shows its field right below the list, where the choice is made': (
		description,
	) => {
		const misplaced: string[] = [];
		for (const { resource, operation } of operationsOf(description)) {
			for (const switches of SWITCHES) {
				const values = { resource, operation, ...switches };
				for (const seen of walkShown(description, CURRENT, values as INodeParameters)) {
					const { property, path, place } = seen;
					if (!optionsOf(property).some((option) => option.value === OTHER)) continue;
					const at = path ? `${path}.${property.name}` : property.name;
					const chosen = walkShown(
						description,
						CURRENT,
						setAt(values, at, OTHER) as INodeParameters,
					).find((other) => other.path === path && other.property.name === property.name);
					const siblings = chosen?.siblings ?? [];
					const next = siblings[siblings.indexOf(chosen?.property as INodeProperties) + 1];
					if (place === 'collection' || next?.name !== otherFieldName(property.name))
						misplaced.push(`${resource}/${operation} ${at}`);
					const hidden = walkShown(
						description,
						CURRENT,
						setAt(values, at, '') as INodeParameters,
					).some((other) => other.path === path && other.property.name === next?.name);
					if (hidden) misplaced.push(`${resource}/${operation} ${at}: shown without Other`);
				}
			}
		}
		return [...new Set(misplaced)];
	},

	'what a run cannot do without is marked required, and nothing in a collection is': (
		description,
	) => {
		const missing: string[] = [];
		for (const [where, fields] of Object.entries(REQUIRED)) {
			const [resource, operation] = where.split('/');
			for (const [switches, name] of fields) {
				const values = { resource, operation, ...switches } as INodeParameters;
				const shown = walkShown(description, CURRENT, values).find(
					(seen) => seen.place === 'top' && seen.property.name === name,
				);
				if (shown?.property.required !== true) missing.push(`${where} ${name}`);
			}
		}
		for (const seen of currentPanel(description))
			if (seen.place !== 'top' && seen.property.required) missing.push(`${label(seen)} (optional)`);
		return missing;
	},

	'an option that applies a default when not added says "Defaults to …"': (description) =>
		currentPanel(description)
			.filter(({ place, property }) => {
				if (place === 'top' || property.type === 'fixedCollection') return false;
				const { default: value, description: text = '', type } = property;
				if (type === 'json' || value === '' || value === false) return false;
				if (Array.isArray(value) || (typeof value === 'object' && value !== null)) return false;
				if (type === 'options') {
					const shownAs = optionsOf(property).find((option) => option.value === value)?.name;
					return !text.includes(`Defaults to '${shownAs}'`);
				}
				if (type === 'boolean') return !text.includes('Defaults to on');
				if (type === 'string') return !text.includes(`Defaults to '${String(value)}'`);
				return !text.includes(`Defaults to ${String(value)}`);
			})
			.map(label),

	'a list whose default is empty says so in its first entry': (description) =>
		currentPanel(description)
			.filter(({ property }) => property.type === 'options' && property.default === '')
			.filter(({ property }) => {
				const first = optionsOf(property)[0];
				return first?.value !== '' || !['Service Default', 'From the A+ Plan'].includes(first.name);
			})
			.map(label),

	'every name a text quotes is one the panel shows, an operation, or a field of the items': (
		description,
	) => {
		const names = quotableNames(description);
		const unknown: string[] = [];
		for (const [where, text] of sentenceTexts(currentPanel(description)))
			for (const name of quotedNames(text))
				if (!names.has(name)) unknown.push(`${where}: '${name}'`);
		return unknown;
	},

	'a text names a label, a list entry or an operation of the panel in single quotation marks': (
		description,
	) => {
		const names = [...panelNames(description)].filter(
			(name) => name.includes(' ') || /\d/.test(name),
		);
		const unquoted: string[] = [];
		for (const [where, text] of sentenceTexts(currentPanel(description))) {
			// What is quoted is set apart; a name left in the rest stands bare.
			const bare = text.replace(/(?:^|[\s(])'([^']+)'(?=[\s),.:;]|$)/g, ' ');
			for (const name of names)
				if (new RegExp(`(^|[^\\w'])${escaped(name)}($|[^\\w'])`).test(bare))
					unquoted.push(`${where}: ${name}`);
		}
		return unquoted;
	},

	'a toggle’s description starts with "Whether"': (description) =>
		currentPanel(description)
			.filter(({ property }) => property.type === 'boolean')
			.filter(({ property }) => !String(property.description).startsWith('Whether '))
			.map(label),

	'operations: a Title Case name, an action in sentence case without articles, a description': (
		description,
	) =>
		description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) => property.options as INodePropertyOptions[])
			.filter(
				(option) =>
					titleCase(option.name) !== option.name ||
					!option.action ||
					option.action.charAt(0) !== option.action.charAt(0).toUpperCase() ||
					/(^|\s)(a|an|the)\s/i.test(option.action) ||
					/\s[A-Z][a-z]/.test(option.action.replace(/A\+ /g, '')) ||
					!option.description,
			)
			.map((option) => option.name),

	'an operation’s description names its resource (the verification page)': (description) => {
		const resources = (description.properties.find(named('resource'))?.options ??
			[]) as INodePropertyOptions[];
		return description.properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) => {
				const resource = resources.find(
					(option) => option.value === property.displayOptions?.show?.resource?.[0],
				);
				return (property.options as INodePropertyOptions[])
					.filter(
						(option) =>
							!String(option.description)
								.toLowerCase()
								.includes(String(resource?.name).toLowerCase()),
					)
					.map((option) => `${resource?.name} → ${option.name}: ${option.description}`);
			});
	},
};

const description = new ProductImage().description;

test.each(Object.keys(checks))('%s', (name) => {
	expect(checks[name](description)).toEqual([]);
});

test('the codex names the node version new nodes get, and a category n8n knows', () => {
	expect(codex.nodeVersion).toBe(`${CURRENT}.0`);
	expect(codex.codexVersion).toBe('1.0');
	// n8n's documented categories, as its community lint (valid-codex-categories) reads them.
	const known = [
		'Analytics',
		'Communication',
		'Data & Storage',
		'Development',
		'Finance & Accounting',
		'Marketing & Content',
		'Miscellaneous',
		'Productivity',
		'Sales',
		'Utility',
	];
	for (const category of codex.categories) expect(known).toContain(category);
});

/** A copy of the description to plant a violation in. */
const copy = (): Description => JSON.parse(JSON.stringify(description)) as Description;

/** The first parameter of the current version's panel that `match` picks, in the copy. */
function plantIn(
	target: Description,
	match: (property: INodeProperties) => boolean,
	change: (property: INodeProperties) => void,
): Description {
	const found = currentPanel(target).find(({ property }) => match(property));
	if (!found) throw new Error('nothing to plant the violation in');
	change(found.property);
	return target;
}

const list = (property: INodeProperties) => optionsOf(property);

const plants: Array<[string, () => Description]> = [
	[
		'labels and list titles are Title Case, as title-case (n8n’s lint) writes them',
		() => plantIn(copy(), named('prompt'), (p) => (p.displayName = 'prompt text')),
	],
	[
		'tooltips, hints and info boxes are sentence case; one sentence has no final period, several end with one',
		() => plantIn(copy(), named('prompt'), (p) => (p.description = 'What the image shows.')),
	],
	[
		'placeholders are examples ("e.g. …"); a collection’s is its button ("Add …"); every empty text field has one',
		() => plantIn(copy(), named('prompt'), (p) => delete p.placeholder),
	],
	[
		'lists, collections and groups are in alphabetical order (the empty first and Other last excepted)',
		() => plantIn(copy(), named('onTimeout'), (p) => list(p).reverse()),
	],
	[
		'no list entry’s description repeats its title or gives the value sent',
		() =>
			plantIn(copy(), named('size'), (p) => {
				list(p)[0].description = `Sent as ${String(list(p)[0].value)}`;
			}),
	],
	[
		'no label is an API field of the service, says an API word, or is jargon',
		() => plantIn(copy(), named('seriesStyleGuide'), (p) => (p.displayName = 'Series Style Guide')),
	],
	[
		'an Other choice shows its field right below the list, where the choice is made',
		() => {
			// Version 2's shape before the bundles: the typed field as one more entry of the collection.
			const target = copy();
			const details = target.properties.find(
				(property) =>
					property.name === 'productDetails' &&
					property.displayOptions?.show?.operation?.includes('generate'),
			) as INodeProperties;
			const entries = details.options as INodeProperties[];
			const bundle = entries.find(named('platform')) as INodeProperties;
			const [group] = groupsOf(bundle);
			details.options = [
				...entries.filter((entry) => entry !== bundle),
				...group.values.filter((value) => value.displayOptions?.hide),
				...group.values.filter((value) => value.name === 'customPlatform'),
			];
			return target;
		},
	],
	[
		'what a run cannot do without is marked required, and nothing in a collection is',
		() => plantIn(copy(), named('productDescription'), (p) => delete p.required),
	],
	[
		'an option that applies a default when not added says "Defaults to …"',
		() => plantIn(copy(), named('binaryPropertyName'), (p) => (p.description = 'The field to use')),
	],
	[
		'a list whose default is empty says so in its first entry',
		() =>
			plantIn(
				copy(),
				(p) => p.name === 'market' && p.type === 'options',
				(p) => list(p).push(list(p).shift()!),
			),
	],
	[
		'every name a text quotes is one the panel shows, an operation, or a field of the items',
		() =>
			plantIn(
				copy(),
				named('generationSource'),
				(p) => (p.description = "Where 'Prompt and Size' come from"),
			),
	],
	[
		'a text names a label, a list entry or an operation of the panel in single quotation marks',
		() =>
			// The tooltip as 0.3.0 shipped it: a list entry named bare.
			plantIn(
				copy(),
				named('size'),
				(p) => (p.description = "A store's product images: usually Square 1:1"),
			),
	],
	[
		'a toggle’s description starts with "Whether"',
		() => plantIn(copy(), named('downloadImages'), (p) => (p.description = 'Download the images.')),
	],
	[
		'an operation’s description names its resource (the verification page)',
		() => {
			// Submit Generation's description as 0.3.0 shipped it.
			const target = copy();
			const operation = target.properties.find(named('operation')) as INodeProperties;
			const submit = list(operation).find((option) => option.value === 'generate');
			if (submit) submit.description = 'Submit a generation task and output its task ID';
			return target;
		},
	],
	[
		'operations: a Title Case name, an action in sentence case without articles, a description',
		() => {
			const target = copy();
			const operation = target.properties.find(named('operation')) as INodeProperties;
			list(operation)[0].action = 'Download an image';
			return target;
		},
	],
];

test('every check has a planted violation', () => {
	expect(plants.map(([name]) => name).sort()).toEqual(Object.keys(checks).sort());
});

test.each(plants)('"%s" catches a planted violation', (name, planted) => {
	expect(checks[name](planted()).length).toBeGreaterThan(0);
});
