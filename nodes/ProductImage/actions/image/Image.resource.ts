import type { INodeProperties } from 'n8n-workflow';

import * as download from './download.operation';
import * as generate from './generate.operation';
import * as generateAndWait from './generateAndWait.operation';
import * as upload from './upload.operation';

export const operations = { upload, generate, generateAndWait, download };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['image'] } },
		options: [
			{
				name: 'Download',
				value: 'download',
				description: 'Download an image address into a binary field',
				action: 'Download an image',
			},
			{
				name: 'Generate and Wait',
				value: 'generateAndWait',
				description: 'Submit a generation task, wait for it, and output the images as binary data',
				action: 'Generate and wait for images',
			},
			{
				name: 'Submit Generation (No Wait)',
				value: 'generate',
				description: 'Submit a generation task and output its task ID without waiting',
				action: 'Submit a generation without waiting',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a binary image and get an address to use as an image URL',
				action: 'Upload an image',
			},
		],
		default: 'generateAndWait',
	},
	...upload.description,
	...generate.description,
	...generateAndWait.description,
	...download.description,
];
