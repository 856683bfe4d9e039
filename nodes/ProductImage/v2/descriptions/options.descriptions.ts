import type { INodeProperties } from 'n8n-workflow';

import {
	bundle,
	downloadImagesOption,
	INPUT_BINARY_FIELDS,
	maxWaitTimeOption,
	onTimeoutOption,
	OPTION_BUNDLES,
	sortedCollection,
	STORED,
	whenDownloading,
} from '../../descriptions/common.descriptions';

/** What the service is told, apart from Options, as n8n's nodes keep "Additional Fields". */
export const detailsCollection = (displayName: string, name: string, options: INodeProperties[]) =>
	sortedCollection(displayName, name, 'Add Detail', options);

/** Where the images of an item come from: one choice instead of version 1's two fields. */
export const IMAGE_SOURCE = { urls: 'urls', binary: 'binary', both: 'both' } as const;

export const imageSourceProperty: INodeProperties = {
	displayName: 'Images From',
	name: 'imageSource',
	type: 'options',
	noDataExpression: true,
	default: 'urls',
	options: [
		{ name: 'Both', value: IMAGE_SOURCE.both, description: 'URLs and files together' },
		{
			name: 'Files of the Input Item',
			value: IMAGE_SOURCE.binary,
			description:
				"Files in the input item's binary fields, such as from Read/Write Files, HTTP Request or a store node",
		},
		{
			name: 'URLs',
			value: IMAGE_SOURCE.urls,
			description: "'Image URLs': typed in, or a store node's images field dragged here",
		},
	],
	description: 'Where the product photos come from',
};

/**
 * n8n drops a parameter its panel hides before the node runs, so a field not chosen is never
 * read. Where an image is needed (`required`), the one field chosen is marked required.
 */
export function imageSourceFields(
	urls: INodeProperties[],
	{ required = false }: { required?: boolean } = {},
): INodeProperties[] {
	const shownFor = (property: INodeProperties, source: string): INodeProperties[] => {
		const variant = (only: string[], isRequired: boolean): INodeProperties => ({
			...property,
			...(isRequired ? { required: true } : {}),
			displayOptions: {
				...property.displayOptions,
				show: { ...(property.displayOptions?.show ?? {}), imageSource: only },
			},
		});
		return required
			? [variant([source], true), variant([IMAGE_SOURCE.both], false)]
			: [variant([source, IMAGE_SOURCE.both], false)];
	};
	return [
		imageSourceProperty,
		...urls.flatMap((property) => shownFor(property, IMAGE_SOURCE.urls)),
		...shownFor(inputBinaryFieldsProperty, IMAGE_SOURCE.binary),
	];
}

/** One word per thing: the content is a file, the named place on an item is a binary field. */
const inputBinaryFieldsProperty: INodeProperties = {
	displayName: INPUT_BINARY_FIELDS,
	...STORED.inputBinaryFields,
	description:
		"Names of the input item's binary fields that hold the product photos, separated by commas. Each file is uploaded first.",
};

/** The current version says the default it shows, as every other option does. */
export const outputFileFieldOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	...STORED.binaryPropertyName,
	description: "Defaults to 'data'",
	hint: 'The name of the output binary field to put the image file in',
};

/** Max Concurrency in plain words (the current version); the stored name stays. */
export const itemsInParallelOption: INodeProperties = {
	displayName: 'Items in Parallel',
	...STORED.maxConcurrency,
	description:
		"How many items run at the same time; the first item's value counts for all. The output keeps the input order. Defaults to 5.",
};

/**
 * Submit Generation (No Wait): its items were submitted one after another before the option
 * existed, and a saved workflow without it still is.
 */
export const submitsInParallelOption: INodeProperties = {
	...itemsInParallelOption,
	default: 1,
	description:
		"How many items are submitted at the same time (the first item's value counts for all): set it to a batch's size to send the batch at once. The output keeps the input order. Defaults to 1, one after another.",
};

/** Each operation shows the delay it uses: 5 s after its own generation, none for an older task. */
const initialDelayAfterSubmitOption: INodeProperties = {
	displayName: 'First Check After',
	...STORED.initialDelay,
	description:
		'Seconds between sending the generation and the first status check. Defaults to 5, as the service asks.',
};

const initialDelayExistingTaskOption: INodeProperties = {
	...initialDelayAfterSubmitOption,
	default: 0,
	description:
		'Seconds before the first status check. Defaults to 0; set 5 when the task was sent just before this node.',
};

/** Check Interval no longer chooses the rhythm (Poll Interval did in version 1): Adaptive alone. */
const pollingOption: INodeProperties = {
	displayName: 'Status Checks',
	...STORED.polling,
	options: [
		{
			name: 'Adaptive',
			value: 'adaptive',
			description:
				"Once a few tasks of this run have finished, check when the next ones should be done; until then every 'Check Interval'",
		},
		{ name: 'Fixed Interval', value: 'fixed', description: "Every 'Check Interval'" },
	],
	description:
		"When the node asks the service whether a task has finished. Defaults to 'Adaptive'.",
};

const pollIntervalOption: INodeProperties = {
	displayName: 'Check Interval',
	...STORED.pollInterval,
	description:
		"Seconds between status checks; with 'Adaptive', more checks where this run's tasks are likely to finish, never fewer. Defaults to 5.",
};

const imagesOutputOption: INodeProperties = {
	displayName: 'Images Output',
	...STORED.imagesOutput,
	displayOptions: whenDownloading,
	description: "How the image files are put on items. Defaults to 'One Item per Image'.",
	options: [
		{
			name: 'One Item per Image',
			value: 'perImage',
			description:
				"Each image is an item of its own, its file in the binary field named in 'Put Output File in Field'",
		},
		{
			name: 'One Item per Task',
			value: 'together',
			description:
				"All images of the task on one item, in numbered binary fields: 'data_0', 'data_1', … for the field name 'data'",
		},
	],
};

/** One entry of Options, since the last three mean something only while images are downloaded. */
function outputFilesBundle(fileName?: INodeProperties): INodeProperties {
	return bundle(
		'Output Files',
		OPTION_BUNDLES.outputFiles,
		[
			downloadImagesOption,
			imagesOutputOption,
			{ ...outputFileFieldOption, displayOptions: whenDownloading },
			...(fileName ? [{ ...fileName, displayOptions: whenDownloading }] : []),
		],
		'Whether the images are output as files, and how the files are placed and named',
	);
}

/** One entry of Options, in the order a wait uses them. */
function waitingBundle(existingTask: boolean): INodeProperties {
	return bundle(
		'Waiting',
		OPTION_BUNDLES.waiting,
		[
			existingTask ? initialDelayExistingTaskOption : initialDelayAfterSubmitOption,
			pollingOption,
			pollIntervalOption,
			maxWaitTimeOption,
			onTimeoutOption,
		],
		'When the node checks whether the task has finished, and how long it waits',
	);
}

export function waitOptions(existingTask: boolean, fileName?: INodeProperties): INodeProperties[] {
	return [outputFilesBundle(fileName), waitingBundle(existingTask), itemsInParallelOption];
}

/** On by default, unlike version 1's, so a product's own fields reach the output items. */
export const includeOtherFieldsOption: INodeProperties = {
	displayName: 'Include Other Input Fields',
	name: 'includeOtherFields',
	type: 'boolean',
	default: true,
	description:
		"Whether to copy the input item's fields onto each output item after the node's own, such as a product's ID and title. A field named like one this node outputs, such as a product's 'status', keeps its value under 'input_fields', so the node's results are never confused with it. Defaults to on.",
};
