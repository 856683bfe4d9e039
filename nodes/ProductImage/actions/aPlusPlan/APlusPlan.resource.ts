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
				description: 'Plan A+ modules: a prompt per module, a global style guide and review notes',
				action: 'Create an A+ plan',
			},
		],
		default: 'create',
	},
	...create.description,
];
