import { properties } from './properties';

/**
 * The canvas shows "Generate and Wait · Image", not the stored values: the words come from the
 * operation and resource options themselves, so a renamed label never goes stale here.
 */
function label(name: string, resource?: string): Record<string, string> {
	const property = properties.find(
		(candidate) =>
			candidate.name === name &&
			(resource === undefined || candidate.displayOptions?.show?.resource?.includes(resource)),
	);
	const options = (property?.options ?? []) as Array<{ name: string; value: unknown }>;
	return Object.fromEntries(options.map((option) => [String(option.value), option.name]));
}

function subtitleWords(): Record<string, string> {
	const words: Record<string, string> = {};
	for (const [resource, resourceName] of Object.entries(label('resource'))) {
		for (const [operation, operationName] of Object.entries(label('operation', resource))) {
			words[`${resource}:${operation}`] = `${operationName} · ${resourceName}`;
		}
	}
	return words;
}

export const SUBTITLE = `={{ (${JSON.stringify(subtitleWords())})[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
