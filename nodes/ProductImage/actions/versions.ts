import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/**
 * Version 2 turned free-text fields into lists, so their stored values have another type: saved
 * version 1 workflows keep version 1's parameters and behaviour, new nodes get version 2.
 */
export const NODE_VERSIONS = [1, 2];
export const DEFAULT_VERSION = 2;

const VERSION_1: IDisplayOptions = { show: { '@version': [1] } };
const FROM_VERSION_2: IDisplayOptions = { show: { '@version': [{ _cnd: { gte: 2 } }] } };

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

export function nodeVersion(context: IExecuteFunctions): number {
	return context.getNode().typeVersion;
}
