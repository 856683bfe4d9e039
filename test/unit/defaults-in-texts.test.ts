import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { WAIT_FOR_COMPLETION } from '../../nodes/ProductImage/transport/guidance';

// A default is written once, as the `default` of its description; a text that says "Defaults to …"
// says it again, so each such text is held against the `default` it names. The node's description is
// one object for every version: each property carries the texts and the default of the versions
// that show it.

const description = new ProductImage().description;

/** Every property of the panel, those inside collections (Options) and their bundles included. */
function allProperties(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [property, ...allProperties(inner(property))]);
}

function inner(property: INodeProperties): INodeProperties[] {
	if (property.type === 'collection') return (property.options ?? []) as INodeProperties[];
	if (property.type !== 'fixedCollection') return [];
	return ((property.options ?? []) as INodePropertyCollection[]).flatMap((group) => group.values);
}

/** What "Defaults to X" names, as the value it stands for. */
function namedDefault(property: INodeProperties, said: string): unknown {
	if (said === 'on') return true;
	if (said === 'off') return false;
	const quoted = /^'(.+)'$/.exec(said);
	if (quoted && property.options === undefined) return quoted[1];
	if (quoted) {
		const options = (property.options ?? []) as INodePropertyOptions[];
		return options.find((option) => option.name === quoted[1])?.value ?? `no option ${said}`;
	}
	return typeof property.default === 'number' ? Number(said) : said;
}

const DEFAULTS_TO = /Defaults to ('[^']+'|[^\s,.;]+)/;

const stated = allProperties(description.properties).flatMap((property) =>
	[property.description, property.hint]
		.map((text) => (typeof text === 'string' ? DEFAULTS_TO.exec(text)?.[1] : undefined))
		.filter((said): said is string => said !== undefined)
		.map((said) => ({ name: property.name, property, said })),
);

test('the panel states defaults in its texts (the check below has cases)', () => {
	expect(stated.length).toBeGreaterThan(10);
});

test.each(stated.map((entry) => [entry.name, entry.said, entry] as const))(
	'%s: "Defaults to %s" is its default',
	(_name, said, { property }) => {
		expect(namedDefault(property, said)).toEqual(property.default);
	},
);

test("the operation the resume advice names is the panel's Task → Wait for Completion", () => {
	const resource = description.properties.find((property) => property.name === 'resource');
	const resourceName = (resource?.options as INodePropertyOptions[]).find(
		(option) => option.value === 'task',
	)?.name;
	const operations = description.properties.find(
		(property) =>
			property.name === 'operation' && property.displayOptions?.show?.resource?.includes('task'),
	);
	const operationName = (operations?.options as INodePropertyOptions[]).find(
		(option) => option.value === 'wait',
	)?.name;
	expect(WAIT_FOR_COMPLETION).toBe(`'${resourceName} → ${operationName}'`);
});
