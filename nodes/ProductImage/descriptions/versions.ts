import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Version 1 is what 0.2.0 released: workflows saved with it keep its parameters and behavior.
 * Version 2 is the current one: lists instead of free text, optional fields in Options and
 * defaults that follow n8n's UX guidelines. A stored value's meaning never changes within a
 * version, so a change of meaning after a release goes to a new version.
 */
export const NODE_VERSIONS = [1, 2];
export const DEFAULT_VERSION = 2;

const VERSION_1: IDisplayOptions = { show: { '@version': [1] } };
const CURRENT_VERSION: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };

function withDisplay(property: INodeProperties, extra: IDisplayOptions): INodeProperties {
	const own = property.displayOptions ?? {};
	return {
		...property,
		displayOptions: { ...own, show: { ...(own.show ?? {}), ...(extra.show ?? {}) } },
	};
}

/** Parameters as version 1 shows them, kept for workflows saved with it. */
export function inVersion1(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => withDisplay(property, VERSION_1));
}

/** Parameters that the current version shows. */
export function inCurrentVersion(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => withDisplay(property, CURRENT_VERSION));
}

/** Whether the node runs as version 1 saved it; every other version runs as the current one. */
export function isVersion1(context: IExecuteFunctions): boolean {
	return context.getNode().typeVersion < 2;
}
