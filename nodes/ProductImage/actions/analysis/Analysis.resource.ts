import type { INodeProperties } from 'n8n-workflow';

import * as analyze from './analyze.operation';

export const operations = { analyze };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['analysis'] } },
		options: [
			{
				name: 'Analyze',
				value: 'analyze',
				description: 'Analyze product photos into product facts and a written product brief',
				action: 'Analyze product photos',
			},
		],
		default: 'analyze',
	},
	...analyze.description,
];
