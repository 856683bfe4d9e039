import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { OPERATION_LISTS } from '../../nodes/ProductImage/descriptions/operations';
import { properties } from '../../nodes/ProductImage/v2/properties';

// Every option and input form of each operation of version 2 runs in a test of that operation on
// version 2. The rule, read from the sources: a parameter counts as run when a suite of the
// operation (`test/v2/<resource>/<operation>.test.ts` or `<operation>-<topic>.test.ts`) sets it as a
// key (`name:`), itself or through a node of that operation built in test/harness/operations.ts
// that the suite calls; a choice of an input form (a list of at most four values, such as Images From or
// Output) counts when a suite sets it to that value (`name: 'value'`), its default being run by any
// test that leaves it alone. Inside a collection or a fixed collection every field counts, and
// notices, which hold no value, do not.

const ROOT = path.join(__dirname, '..', '..');
const FORM_CHOICES = 4;

/** Each operation of the panel, as resource and operation. */
const operations = Object.values(OPERATION_LISTS).flatMap((list) =>
	(list.options as INodePropertyOptions[]).map((operation) => ({
		resource: String(list.displayOptions?.show?.resource?.[0]),
		operation: String(operation.value),
	})),
);

const shownFor = (property: INodeProperties, resource: string, operation: string) => {
	const show = property.displayOptions?.show;
	return (
		(!show?.resource || show.resource.includes(resource)) &&
		(!show?.operation || show.operation.includes(operation))
	);
};

/** What a suite must set: a field's name alone, or a choice as `name: 'value'`. */
function required(property: INodeProperties): string[] {
	if (property.type === 'notice') return [];
	const inner =
		property.type === 'collection'
			? (property.options as INodeProperties[]).flatMap(required)
			: property.type === 'fixedCollection'
				? (property.options as INodePropertyCollection[]).flatMap((group) =>
						group.values.flatMap(required),
					)
				: [];
	const choices =
		property.type === 'options' && (property.options ?? []).length <= FORM_CHOICES
			? (property.options as INodePropertyOptions[])
					.filter((choice) => choice.value !== property.default)
					.map((choice) => `${property.name}: '${String(choice.value)}'`)
			: [];
	return [property.name, ...choices, ...inner];
}

/** What test/harness/operations.ts declares: each one's name, operation (if it builds a node) and source. */
const builders = fs
	.readFileSync(path.join(ROOT, 'test', 'harness', 'operations.ts'), 'utf8')
	.split(/\n(?=export |const )/)
	.map((text) => ({
		name: /^(?:export )?(?:async )?(?:const|function) (\w+)/.exec(text)?.[1] ?? '',
		resource: /\bresource: '(\w+)'/.exec(text)?.[1],
		operation: /\boperation: '(\w+)'/.exec(text)?.[1],
		text,
	}));

/** The operation's suites, their sources joined with those of the builders they use, of its own node or none. */
function suitesOf(resource: string, operation: string): { files: string[]; text: string } {
	const folder = path.join(ROOT, 'test', 'v2', resource);
	const files = fs
		.readdirSync(folder)
		.filter((file) => file === `${operation}.test.ts` || file.startsWith(`${operation}-`))
		.map((file) => `test/v2/${resource}/${file}`);
	let text = files.map((file) => fs.readFileSync(path.join(ROOT, file), 'utf8')).join('\n');
	const ours = builders.filter(
		(builder) =>
			builder.name !== '' &&
			(builder.resource === undefined ||
				(builder.resource === resource && builder.operation === operation)),
	);
	const used = new Set<string>();
	for (let grown = true; grown;) {
		const more = ours.filter(
			(builder) => !used.has(builder.name) && new RegExp(`\\b${builder.name}\\b`).test(text),
		);
		for (const builder of more) used.add(builder.name);
		text = [text, ...more.map((builder) => builder.text)].join('\n');
		grown = more.length > 0;
	}
	return { files, text };
}

const isSet = (text: string, wanted: string) => {
	const [name, value] = wanted.split(': ');
	const pattern = value === undefined ? `\\b${name}\\??:` : `\\b${name}:\\s*${value}`;
	return new RegExp(pattern).test(text);
};

test.each(operations)(
	'$resource/$operation: each option and input form is set in its suites',
	({ resource, operation }) => {
		const wanted = [
			...new Set(
				properties.filter((property) => shownFor(property, resource, operation)).flatMap(required),
			),
		];
		const { files, text } = suitesOf(resource, operation);
		expect(files).not.toEqual([]);
		expect(wanted.filter((name) => !isSet(text, name))).toEqual([]);
	},
);
