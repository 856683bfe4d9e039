import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Each version changes what a saved value means, so saved workflows keep the version they were
 * saved with and new nodes get the newest. Version 2 turned free-text fields into lists (their
 * stored values have another type); version 3 follows n8n's UX guidelines where meeting them
 * changes a default or what an output holds.
 */
export const NODE_VERSIONS = [1, 2, 3];
export const DEFAULT_VERSION = 3;

const VERSION_1: IDisplayOptions = { show: { '@version': [1] } };
const FROM_VERSION_2: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };
const FROM_VERSION_3: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 3 } }] } };

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

/** Parameters that version 2 and later show. */
export function fromVersion2(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => withDisplay(property, FROM_VERSION_2));
}

/** Parameters that exactly these versions show (a default or meaning version 3 changed). */
export function inVersions(versions: number[], properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => withDisplay(property, { show: { '@version': versions } }));
}

/** Parameters that version 3 and later show. */
export function fromVersion3(properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => withDisplay(property, FROM_VERSION_3));
}

export function nodeVersion(context: IExecuteFunctions): number {
	return context.getNode().typeVersion;
}
