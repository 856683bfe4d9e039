import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as wait from './wait.operation';

export const operations = { get, wait };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['task'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Retrieve a task: its status and, once finished, its image URLs',
				action: 'Get task status',
			},
			{
				name: 'Wait for Completion',
				value: 'wait',
				description: 'Wait for a task to finish and output its images as files',
				action: 'Wait for task to complete',
			},
		],
		default: 'get',
	},
	...get.description,
	...wait.description,
];
