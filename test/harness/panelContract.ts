import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
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
	{ imageSource: 'both' },
	{ output: 'selectedFields' },
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
	if (property.type === 'collection')
		entry.options = storedAll(property.options as INodeProperties[]);
	if (property.type === 'fixedCollection') {
		entry.groups = Object.fromEntries(
			((property.options ?? []) as INodePropertyCollection[])
				.map((group) => [group.name, storedAll(group.values)] as const)
				.sort(([a], [b]) => a.localeCompare(b)),
		);
	}
	return entry;
}

/** Each parameter of a collection or a group by name, in name order. */
function storedAll(properties: INodeProperties[] = []): Record<string, unknown> {
	return Object.fromEntries(
		properties
			.map((child) => [child.name, stored(child)] as const)
			.sort(([a], [b]) => a.localeCompare(b)),
	);
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

/**
 * What a version's description breaks of its saved contract: a parameter (or a collection's
 * option, or a bundle's field) renamed or removed, retyped, re-defaulted, or a list value removed.
 * Additions are not breaks: a new parameter, option or list value leaves every saved workflow as it was.
 */
export function contractBreaks(saved: PanelContract, now: PanelContract): string[] {
	const breaks: string[] = [];
	for (const [operation, parameters] of Object.entries(saved)) {
		if (!now[operation]) breaks.push(`${operation}: no longer shown`);
		else breaks.push(...entriesBroken(operation, parameters, now[operation]));
	}
	return breaks;
}

type StoredEntry = {
	type: string;
	default: unknown;
	values?: unknown[];
	options?: Record<string, StoredEntry>;
	groups?: Record<string, Record<string, StoredEntry>>;
};

function entriesBroken(
	where: string,
	saved: Record<string, unknown>,
	now: Record<string, unknown>,
): string[] {
	return Object.entries(saved).flatMap(([name, entry]) => {
		const at = where.includes(': ') ? `${where}.${name}` : `${where}: ${name}`;
		const current = now[name] as StoredEntry | undefined;
		return current === undefined
			? [`${at} renamed or removed`]
			: entryBroken(at, entry as StoredEntry, current);
	});
}

function entryBroken(at: string, saved: StoredEntry, now: StoredEntry): string[] {
	const breaks: string[] = [];
	if (saved.type !== now.type) breaks.push(`${at} retyped from ${saved.type} to ${now.type}`);
	if (JSON.stringify(saved.default) !== JSON.stringify(now.default))
		breaks.push(
			`${at} re-defaulted from ${JSON.stringify(saved.default)} to ${JSON.stringify(now.default)}`,
		);
	for (const value of saved.values ?? [])
		if (!(now.values ?? []).includes(value))
			breaks.push(`${at} lost the list value ${JSON.stringify(value)}`);
	if (saved.options) breaks.push(...entriesBroken(`${at}`, saved.options, now.options ?? {}));
	for (const [group, fields] of Object.entries(saved.groups ?? {}))
		breaks.push(...entriesBroken(`${at}.${group}`, fields, now.groups?.[group] ?? {}));
	return breaks;
}
