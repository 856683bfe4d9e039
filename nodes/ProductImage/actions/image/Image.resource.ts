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
				description: 'Download an image from its URL as a file',
				action: 'Download image',
			},
			{
				name: 'Generate and Wait',
				value: 'generateAndWait',
				description: 'Generate images, wait until they are ready and output them as files',
				action: 'Generate images and wait',
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
				description: "Upload an image file and get its URL for 'Image URLs'",
				action: 'Upload image',
			},
		],
		default: 'generateAndWait',
	},
	...upload.description,
	...generate.description,
	...generateAndWait.description,
	...download.description,
];
