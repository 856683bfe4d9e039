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
				description: 'Get a generation task as the service reports it',
				action: 'Get a task',
			},
			{
				name: 'Wait for Task',
				value: 'wait',
				description: 'Wait for an existing task to finish and output its images as binary data',
				action: 'Wait for a task',
			},
		],
		default: 'get',
	},
	...get.description,
	...wait.description,
];
