import type { INodeProperties } from 'n8n-workflow';

import * as aPlusPlan from './aPlusPlan/APlusPlan.resource';
import * as analysis from './analysis/Analysis.resource';
import * as image from './image/Image.resource';
import * as task from './task/Task.resource';

/** The node's parameters: the resource choice, then each resource's operations and fields. */
export const properties: INodeProperties[] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'A+ Plan', value: 'aPlusPlan' },
			{ name: 'Analysis', value: 'analysis' },
			{ name: 'Image', value: 'image' },
			{ name: 'Task', value: 'task' },
		],
		default: 'image',
	},
	...image.description,
	...task.description,
	...analysis.description,
	...aPlusPlan.description,
];

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
