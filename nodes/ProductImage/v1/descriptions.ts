import type { INodeProperties } from 'n8n-workflow';

import {
	downloadImagesOption,
	INPUT_BINARY_FIELDS,
	maxWaitTimeOption,
	onTimeoutOption,
	STORED,
	whenDownloading,
} from '../descriptions/common.descriptions';

export const inputBinaryFieldsProperty: INodeProperties = {
	displayName: INPUT_BINARY_FIELDS,
	...STORED.inputBinaryFields,
	description:
		"Names of the input item's file fields that hold the product photos, separated by commas. Each file is uploaded before the request.",
};

export const platformProperty: INodeProperties = {
	displayName: 'Platform',
	name: 'platform',
	type: 'string',
	default: '',
	placeholder: 'e.g. amazon',
	description: 'Sales platform whose image rules to follow, in lowercase',
};

export const binaryPropertyOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	...STORED.binaryPropertyName,
	hint: 'The name of the output binary field to put the image in',
};

export const maxConcurrencyOption: INodeProperties = {
	displayName: 'Max Concurrency',
	...STORED.maxConcurrency,
	description:
		'How many items are sent to the service and waited for at the same time (read from the first item). The output keeps the input order. Defaults to 5.',
};

/**
 * The timing options of a wait, each on its own so that the code reading it takes the default
 * from its description (optionOrDefault).
 */
const initialDelayOption: INodeProperties = {
	displayName: 'Initial Delay',
	...STORED.initialDelay,
	description:
		"Seconds between the submit and the first status check; the service asks for 5. 'Task → Wait for Completion' checks at once when this option is not added.",
};

const pollingOption: INodeProperties = {
	displayName: 'Polling',
	...STORED.polling,
	options: [
		{
			name: 'Adaptive',
			value: 'adaptive',
			description:
				"Once a few tasks of this run have finished, check when the next ones are likely to finish, by the service's own timestamps; until then, every 'Poll Interval'",
		},
		{ name: 'Fixed Interval', value: 'fixed', description: "Check every 'Poll Interval'" },
	],
	description:
		"When to ask the service whether a task has finished. Defaults to 'Adaptive', or to 'Fixed Interval' when only 'Poll Interval' is added.",
};

const pollIntervalOption: INodeProperties = {
	displayName: 'Poll Interval',
	...STORED.pollInterval,
	description:
		"Seconds between status checks; with 'Adaptive', more checks where this run's tasks are likely to finish, never fewer. Added without the 'Polling' option, it means 'Fixed Interval'. Defaults to 5.",
};

/** Options of every operation that waits for a task and hands its images on, as version 1 shows them. */
export const waitOptions: INodeProperties[] = [
	{
		...binaryPropertyOption,
		displayOptions: whenDownloading,
		description: 'Defaults to data',
	},
	downloadImagesOption,
	{
		displayName: 'Images Output',
		...STORED.imagesOutput,
		displayOptions: whenDownloading,
		description: "How the downloaded files are put on items. Defaults to 'One Item per Image'.",
		options: [
			{
				name: 'One Item per Image',
				value: 'perImage',
				description:
					"Each image is an item of its own, in the field named in 'Put Output File in Field'",
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
	// Stop first, as 0.2.0 listed them.
	{ ...onTimeoutOption, options: [...(onTimeoutOption.options ?? [])].reverse() },
	maxWaitTimeOption,
	pollingOption,
	pollIntervalOption,
];

/** What the output items carry besides the node's own fields: the input item's, when asked for. */
export const includeOtherFieldsOption: INodeProperties = {
	displayName: 'Include Other Input Fields',
	name: 'includeOtherFields',
	type: 'boolean',
	default: false,
	description:
		"Whether to copy the input item's fields onto each output item, such as a product's ID and title. Where a field has the same name as one this node outputs, the node's value wins. Defaults to off.",
};
