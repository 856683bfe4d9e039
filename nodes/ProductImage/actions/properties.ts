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
			{ name: 'Image', value: 'image' },
			{ name: 'Analysis', value: 'analysis' },
			{ name: 'A+ Plan', value: 'aPlusPlan' },
			{ name: 'Task', value: 'task' },
		],
		default: 'image',
	},
	...image.description,
	...task.description,
	...analysis.description,
	...aPlusPlan.description,
];
