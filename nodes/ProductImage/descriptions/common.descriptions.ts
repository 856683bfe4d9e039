import type { INodeProperties } from 'n8n-workflow';

/** The "Options" collection every operation with optional settings shows. */
export function optionsCollection(options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

export const imageUrlsProperty: INodeProperties = {
	displayName: 'Image URLs',
	name: 'imageUrls',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	placeholder: 'https://example.com/front.jpg, https://example.com/side.jpg',
	description:
		"Product images: drag a store node's images field here (Shopify, WooCommerce, BigCommerce, Amazon catalog items), or enter http(s) addresses separated by commas or new lines. Lists, image objects and lists of image sets are read; each image's src, link or url_zoom is used.",
};

export const inputBinaryFieldsProperty: INodeProperties = {
	displayName: 'Input Binary Fields',
	name: 'inputBinaryFields',
	type: 'string',
	default: '',
	placeholder: 'data, data_1',
	description:
		'Comma-separated binary fields of the input item to upload first; their addresses are added to the image URLs. Leave empty when you only use addresses.',
};

export const productNameProperty: INodeProperties = {
	displayName: 'Product Name',
	name: 'productName',
	type: 'string',
	default: '',
	placeholder: 'Insulated steel water bottle 750 ml',
	description:
		'The product as a shopper would name it; helps the service keep the product recognisable',
};

export const platformProperty: INodeProperties = {
	displayName: 'Platform',
	name: 'platform',
	type: 'string',
	default: '',
	placeholder: 'amazon',
	description: 'Target sales platform, such as amazon, shopify or taobao',
};

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 1 },
	default: 120,
	description:
		'Seconds to wait for the answer. The service works while the request is open and recommends at least 120.',
};

export const binaryPropertyOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	hint: 'The name of the output binary field to put the image in',
};

export const maxConcurrencyOption: INodeProperties = {
	displayName: 'Max Concurrency',
	name: 'maxConcurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 50 },
	default: 5,
	description:
		'How many items are sent to the service and waited for at the same time (read from the first item). Output order always follows the input.',
};

/** Shown only while images are downloaded: with addresses only there is no file to place. */
const whenDownloading = { hide: { downloadImages: [false] } };

/**
 * The timing options of a wait, each on its own so that the code reading it takes the default
 * from its description (optionOrDefault).
 */
export const initialDelayOption: INodeProperties = {
	displayName: 'Initial Delay',
	name: 'initialDelay',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 1 },
	default: 5,
	description:
		'Seconds between the submit and the first status query (the service asks for 5). Wait for Task queries at once when this is not set; set it there when the task was submitted just before (Submit Generation, then Wait for Task).',
};

export const maxWaitTimeOption: INodeProperties = {
	displayName: 'Max Wait Time',
	name: 'maxWaitTime',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 1 },
	default: 600,
	description:
		'Seconds after which the wait gives up with an error naming the task ID, so it can be resumed',
};

export const pollingOption: INodeProperties = {
	displayName: 'Polling',
	name: 'polling',
	type: 'options',
	default: 'adaptive',
	options: [
		{
			name: 'Adaptive',
			value: 'adaptive',
			description:
				"Once a few tasks of this run have finished, query when the next ones are likely to finish, by the service's own timestamps; until then, every Poll Interval",
		},
		{ name: 'Fixed Interval', value: 'fixed', description: 'Query every Poll Interval' },
	],
	description: 'When to ask the service whether a task has finished',
};

export const pollIntervalOption: INodeProperties = {
	displayName: 'Poll Interval',
	name: 'pollInterval',
	type: 'number',
	typeOptions: { minValue: 0.1, numberPrecision: 1 },
	default: 5,
	description:
		'Seconds between status queries: always with Fixed Interval; with Adaptive, before anything is known and outside the predicted finish. A workflow that sets it without choosing Polling keeps Fixed Interval.',
};

/** Options of every operation that waits for a task and hands its images on. */
export const waitOptions: INodeProperties[] = [
	{ ...binaryPropertyOption, displayOptions: whenDownloading },
	{
		displayName: 'Download Images',
		name: 'downloadImages',
		type: 'boolean',
		default: true,
		description:
			'Whether to download the images as binary data. Off: output the result addresses only (valid 3 days).',
	},
	{
		displayName: 'Images Output',
		name: 'imagesOutput',
		type: 'options',
		default: 'perImage',
		displayOptions: whenDownloading,
		options: [
			{
				name: 'One Item per Image',
				value: 'perImage',
				description:
					'Each image is an item of its own, in the field named by Put Output File in Field',
			},
			{
				name: 'One Item per Task',
				value: 'together',
				description:
					'All images of the task on one item, in numbered fields: data_0, data_1, … for the field name data',
			},
		],
	},
	initialDelayOption,
	maxConcurrencyOption,
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		default: 'error',
		options: [
			{ name: 'Error', value: 'error', description: 'Stop with an error naming the task ID' },
			{
				name: 'Output Task State',
				value: 'outputTaskState',
				description:
					'Output {task_id, status, timed_out: true, waited_seconds} without an error, so a scheduled collector can look again later',
			},
		],
		description: 'What happens when Max Wait Time runs out before the task finishes',
	},
	maxWaitTimeOption,
	pollingOption,
	pollIntervalOption,
];
