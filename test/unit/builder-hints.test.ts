import type {
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	IParameterBuilderHint,
} from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import {
	OPERATION_LISTS,
	resourceProperty,
} from '../../nodes/ProductImage/descriptions/operations';
import { properties as version1Properties } from '../../nodes/ProductImage/v1/properties';
import { properties as version2Properties } from '../../nodes/ProductImage/v2/properties';
import { PARAMETER_HINTS } from '../../nodes/ProductImage/v2/descriptions/builderHints';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';
import { shownParameters } from '../harness/panelContract';

const description = new ProductImage().description;

type Hinted = [path: string, hint: IParameterBuilderHint, top: INodeProperties];

/**
 * Every builder hint of the built description, by `parameter`, `collection.option` or
 * `parameter=value`, with the top-level parameter it is shown under.
 */
function hintsOf(properties: INodeProperties[], prefix = '', parent?: INodeProperties): Hinted[] {
	return properties.flatMap((property): Hinted[] => {
		const path = `${prefix}${property.name}`;
		const top = parent ?? property;
		const own: Hinted[] = property.builderHint ? [[path, property.builderHint, top]] : [];
		if (property.type === 'collection')
			return [...own, ...hintsOf(property.options as INodeProperties[], `${path}.`, top)];
		const entries = ((property.options ?? []) as INodePropertyOptions[]).flatMap(
			(option): Hinted[] =>
				option.builderHint ? [[`${path}=${String(option.value)}`, option.builderHint, top]] : [],
		);
		return [...own, ...entries];
	});
}

function shown(values: INodeParameters, name: string, typeVersion = CURRENT) {
	return shownParameters(description, typeVersion, values).filter(
		(property) => property.name === name,
	);
}

/** Every operation of every resource, as the lists of the description give them. */
function operations(): Array<{ resource: string; operation: string }> {
	const values = (property?: INodeProperties) =>
		((property?.options ?? []) as INodePropertyOptions[]).map((option) => String(option.value));
	const resources = values(description.properties.find((property) => property.name === 'resource'));
	return resources.flatMap((resource) =>
		values(
			description.properties.find(
				(property) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource),
			),
		).map((operation) => ({ resource, operation })),
	);
}

const generateAndWait = { resource: 'image', operation: 'generateAndWait' };
const createPlan = { resource: 'aPlusPlan', operation: 'create' };

test('the node tells a workflow builder when to choose it and which nodes go with it', () => {
	const hint = description.builderHint;
	expect(hint?.searchHint).toContain('A+ Plan → Create');
	expect(hint?.searchHint).toContain('Task → Wait for Completion');
	expect(hint?.searchHint).toContain('billed');
	// Every type exists in n8n 2.41's nodes-base; the real-n8n credential suite checks it there.
	expect(hint?.relatedNodes?.map((related) => related.nodeType)).toEqual([
		'n8n-nodes-base.editImage',
		'n8n-nodes-base.shopify',
		'n8n-nodes-base.wooCommerce',
		'n8n-nodes-base.httpRequest',
		'n8n-nodes-base.splitOut',
	]);
	const editImage = hint?.relatedNodes?.[0];
	expect(editImage?.relationHint).toContain('target_width');
	expect(editImage?.relationHint).toContain('Ignore Aspect Ratio');
	for (const related of hint?.relatedNodes ?? []) expect(related.relationHint).not.toBe('');
});

test('every parameter hint lands on a parameter of the current version, and none on version 1 alone', () => {
	const built = hintsOf(description.properties);
	for (const [path, hint] of Object.entries(PARAMETER_HINTS)) {
		const landed = built.filter(
			([where, text, top]) =>
				where === path &&
				text === hint.builderHint &&
				(hint.operations ?? []).every((operation) =>
					top.displayOptions?.show?.operation?.includes(operation),
				),
		);
		expect({ path, landed: landed.length > 0 }).toEqual({ path, landed: true });
	}
	for (const [where, , top] of built)
		expect({ where, versions: top.displayOptions?.show?.['@version'] }).not.toEqual({
			where,
			versions: [1],
		});
});

test('the editor hands the hints on with the parameters the current version shows', () => {
	const [source] = shown(generateAndWait, 'generationSource');
	expect(source.builderHint?.propertyHint).toContain("'aPlusModule'");
	const [size] = shown(generateAndWait, 'size');
	expect(size.builderHint?.propertyHint).toContain('not pixels');
	expect(shown(generateAndWait, 'size', 1)[0].builderHint).toBeUndefined();
	const [urls] = shown(generateAndWait, 'imageUrls');
	expect(urls.builderHint?.propertyHint).toContain('Never binary field names');
	const [imageOperations] = shown({ resource: 'image' }, 'operation');
	const generate = (imageOperations.options as INodePropertyOptions[]).find(
		(option) => option.value === 'generate',
	);
	expect(generate?.builderHint?.propertyHint).toContain('Task → Wait for Completion');
	// Platform is hinted as Amazon's on an A+ plan only, not on a generation.
	const planDetails = shown(createPlan, 'planDetails')[0].options as INodeProperties[];
	const planPlatform = planDetails.filter((option) => option.name === 'platform');
	expect(planPlatform.some((option) => option.builderHint?.propertyHint.includes("'amazon'"))).toBe(
		true,
	);
	const productDetails = shown(generateAndWait, 'productDetails')[0].options as INodeProperties[];
	expect(
		productDetails.filter((option) => option.name === 'platform' && option.builderHint),
	).toEqual([]);
});

test('no hint leaks n8n wire format, which a builder would copy into its workflow', () => {
	const texts = [
		description.builderHint?.searchHint ?? '',
		...(description.builderHint?.relatedNodes ?? []).map((related) => related.relationHint),
		...hintsOf(description.properties).map(([, hint]) => hint.propertyHint),
	];
	for (const text of texts) {
		expect(text).not.toMatch(/={{/);
		expect(text).not.toMatch(/\bai_[a-zA-Z]+/);
	}
});

test("n8n's builder tools read the current version's parameters first; each version's panel keeps its order", () => {
	// The tools keep the first parameter of a name, so the current version's comes before version 1's.
	const first = new Map<string, INodeProperties>();
	for (const property of description.properties)
		for (const operation of property.displayOptions?.show?.operation ?? [''])
			if (!first.has(`${String(operation)}/${property.name}`))
				first.set(`${String(operation)}/${property.name}`, property);
	expect(first.get('generateAndWait/size')?.type).toBe('options');
	expect(first.get('analyze/imageUrls')?.builderHint).toBeDefined();
	expect(first.get('generateAndWait/options')?.displayOptions?.show?.['@version']).not.toEqual([1]);
	// What each version shows, in order, is what its folder lists.
	const written = (typeVersion: number) => ({
		...description,
		properties: [
			resourceProperty,
			...Object.values(OPERATION_LISTS),
			...(typeVersion === 1 ? version1Properties : version2Properties),
		],
	});
	const switches = [{}, { generationSource: 'aPlusModule' }, { imageSource: 'binary' }];
	const names = (properties: INodeProperties[]) => properties.map((property) => property.name);
	for (const typeVersion of [1, CURRENT])
		for (const operation of operations())
			for (const extra of switches) {
				const values = { ...operation, ...extra };
				expect([
					typeVersion,
					values,
					names(shownParameters(description, typeVersion, values)),
				]).toEqual([
					typeVersion,
					values,
					names(shownParameters(written(typeVersion), typeVersion, values)),
				]);
			}
});
