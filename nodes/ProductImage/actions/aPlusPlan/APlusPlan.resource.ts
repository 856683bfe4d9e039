import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export const operations = { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['aPlusPlan'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a new A+ plan: a prompt per module, a style guide and notes',
				action: 'Create A+ plan',
			},
		],
		default: 'create',
	},
	...create.description,
];
