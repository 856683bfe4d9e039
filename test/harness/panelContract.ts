import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

/**
 * What a saved workflow of one node version depends on, per operation: the parameters the editor
 * shows, their types and defaults, the values their lists store, and the options of the Options
 * collection. Labels, descriptions and the order of list entries are left out: a workflow does
 * not store them.
 */
export type PanelContract = Record<string, Record<string, unknown>>;

/** Values that reveal the parameters hidden behind a choice (Other, an A+ module source). */
const SWITCHES: Array<Record<string, string>> = [
	{},
	{ generationSource: 'aPlusModule' },
	{ imageSource: 'binary' },
	{
		size: 'custom',
		resolution: 'custom',
		outputLanguage: 'custom',
		platform: 'custom',
		market: 'custom',
		language: 'custom',
	},
];

function optionValues(property: INodeProperties): unknown[] | undefined {
	if (property.type !== 'options' && property.type !== 'multiOptions') return undefined;
	return ((property.options ?? []) as INodePropertyOptions[])
		.map((option) => option.value)
		.sort((a, b) => String(a).localeCompare(String(b)));
}

function stored(property: INodeProperties): Record<string, unknown> {
	const entry: Record<string, unknown> = { type: property.type, default: property.default };
	const values = optionValues(property);
	if (values) entry.values = values;
	if (property.type === 'collection') {
		entry.options = Object.fromEntries(
			((property.options ?? []) as INodeProperties[])
				.map((child) => [child.name, stored(child)] as const)
				.sort(([a], [b]) => a.localeCompare(b)),
		);
	}
	return entry;
}

/** The parameters the editor shows for these values in this node version. */
export function shownParameters(
	description: INodeTypeDescription,
	typeVersion: number,
	values: INodeParameters,
): INodeProperties[] {
	const node = { typeVersion, parameters: {} } as INode;
	// As the editor sees them: what is not set has its default.
	const withDefaults = {
		...NodeHelpers.getNodeParameters(
			description.properties,
			values,
			true,
			false,
			node,
			description,
		),
		...values,
	};
	return description.properties.filter((property) =>
		NodeHelpers.displayParameter(withDefaults, property, node, description),
	);
}

export function panelContract(
	description: INodeTypeDescription,
	typeVersion: number,
): PanelContract {
	const shownFor = (values: INodeParameters) => shownParameters(description, typeVersion, values);
	const contract: PanelContract = {};
	const resources = description.properties.find((property) => property.name === 'resource');
	for (const resource of (resources?.options ?? []) as INodePropertyOptions[]) {
		const operationList = shownFor({ resource: resource.value }).find(
			(property) => property.name === 'operation',
		);
		for (const operation of (operationList?.options ?? []) as INodePropertyOptions[]) {
			for (const switches of SWITCHES) {
				const values: INodeParameters = {
					resource: resource.value,
					operation: operation.value,
					...switches,
				};
				const parameters = shownFor(values);
				const key = [resource.value, operation.value, ...Object.keys(switches).slice(0, 1)].join(
					'/',
				);
				contract[key] = Object.fromEntries(
					parameters
						.map((property) => [property.name, stored(property)] as const)
						.sort(([a], [b]) => a.localeCompare(b)),
				);
			}
		}
	}
	return contract;
}
