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
				action: 'Get task status',
			},
			{
				name: 'Wait for Completion',
				value: 'wait',
				description: 'Wait for a submitted task to finish and output its images as binary data',
				action: 'Wait for task completion and get images',
			},
		],
		default: 'get',
	},
	...get.description,
	...wait.description,
];
