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
				description: 'Download an image URL into a binary field',
				action: 'Download image from URL',
			},
			{
				name: 'Generate and Wait',
				value: 'generateAndWait',
				description: 'Submit a generation task, wait for it, and output the images as binary data',
				action: 'Generate images and wait for them',
			},
			{
				name: 'Submit Generation (No Wait)',
				value: 'generate',
				description: 'Submit a generation task and output its task ID without waiting',
				action: 'Submit image generation without waiting',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a binary image and get a URL to use in Image URLs',
				action: 'Upload image file',
			},
		],
		default: 'generateAndWait',
	},
	...upload.description,
	...generate.description,
	...generateAndWait.description,
	...download.description,
];
