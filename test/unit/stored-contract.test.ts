import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodeProperties, INodeTypeDescription } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import type { PanelContract } from '../harness/panelContract';
import { contractBreaks, panelContract } from '../harness/panelContract';

/**
 * Each released version's stored contract, as its release packed it: every parameter a saved
 * workflow of it can hold (collections and bundles walked), with its type, default and list
 * values. Version 1 is 0.2.0's, version 2 is 0.3.0's. Taken with test/harness/panelContract.ts.
 */
const RELEASED = { 1: '0.2.0', 2: '0.3.0' } as const;

function saved(version: keyof typeof RELEASED): PanelContract {
	const file = path.join(__dirname, 'fixtures', `panel-contract-v${version}.json`);
	return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, PanelContract>)[version];
}

const description = new ProductImage().description;

test.each(Object.keys(RELEASED).map(Number) as Array<keyof typeof RELEASED>)(
	'version %i keeps every parameter, type, default and list value its release stored',
	(version) => {
		expect(contractBreaks(saved(version), panelContract(description, version))).toEqual([]);
	},
);

/** The description with one parameter changed wherever it appears, collections and bundles included. */
function changed(
	name: string,
	change: (property: INodeProperties) => INodeProperties,
): INodeTypeDescription {
	const visit = (property: INodeProperties): INodeProperties => {
		const own = property.name === name ? change(property) : property;
		if (own.type === 'collection')
			return { ...own, options: (own.options as INodeProperties[]).map(visit) };
		if (own.type === 'fixedCollection')
			return {
				...own,
				options: (own.options as Array<{ name: string; values: INodeProperties[] }>).map(
					(group) => ({ ...group, values: group.values.map(visit) }),
				),
			} as INodeProperties;
		return own;
	};
	return { ...description, properties: description.properties.map(visit) };
}

describe('the contract check fails on what a saved workflow would lose', () => {
	test('a renamed parameter', () => {
		const renamed = changed('prompt', (property) => ({ ...property, name: 'instruction' }));
		expect(contractBreaks(saved(2), panelContract(renamed, 2))).toContain(
			'image/generateAndWait: prompt renamed or removed',
		);
	});

	test('a changed default, inside a bundle of Options', () => {
		const redefaulted = changed('maxWaitTime', (property) => ({ ...property, default: 300 }));
		expect(contractBreaks(saved(2), panelContract(redefaulted, 2))).toContain(
			'task/wait: options.waiting.value.maxWaitTime re-defaulted from 600 to 300',
		);
		expect(contractBreaks(saved(1), panelContract(redefaulted, 1))).toContain(
			'task/wait: options.maxWaitTime re-defaulted from 600 to 300',
		);
	});

	test('a removed list value', () => {
		const shorter = changed('size', (property) =>
			property.type === 'options'
				? {
						...property,
						options: (property.options as Array<{ value: unknown }>).filter(
							(option) => option.value !== '16:9',
						) as INodeProperties['options'],
					}
				: property,
		);
		expect(contractBreaks(saved(2), panelContract(shorter, 2))).toContain(
			'image/generateAndWait: size lost the list value "16:9"',
		);
	});

	test('a retyped parameter, and not an added one or an added list value', () => {
		const retyped = changed('productName', (property) => ({ ...property, type: 'options' }));
		expect(contractBreaks(saved(1), panelContract(retyped, 1))).toContain(
			'image/generateAndWait: productName retyped from string to options',
		);
		const added: INodeTypeDescription = {
			...description,
			properties: [
				...description.properties,
				{ displayName: 'New', name: 'brandNew', type: 'string', default: '' },
			],
		};
		expect(contractBreaks(saved(2), panelContract(added, 2))).toEqual([]);
	});
});
