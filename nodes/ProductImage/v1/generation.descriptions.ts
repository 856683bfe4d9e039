import type { INodeProperties } from 'n8n-workflow';

import {
	billingNotice,
	generatedFileNameOption,
	imageUrlsProperty,
	optionsCollection,
	productNameProperty,
	promptProperty,
	sellingPointsProperty,
	STORED,
	timeoutOption,
} from '../descriptions/common.descriptions';
import {
	includeOtherFieldsOption,
	inputBinaryFieldsProperty,
	platformProperty,
	waitOptions,
} from './descriptions';

/** Version 1's free-text fields: Size, Resolution and Output Language, as saved workflows store them. */
const textFields: INodeProperties[] = [
	{
		displayName: 'Size',
		name: 'size',
		type: 'string',
		default: '1:1',
		placeholder: 'e.g. 16:9',
		description: 'Aspect ratio as width:height, such as 1:1, 4:3 or 16:9',
	},
	{
		displayName: 'Resolution',
		name: 'resolution',
		type: 'string',
		default: '1k',
		placeholder: 'e.g. 2k',
		description: 'Resolution label, such as 1k or 2k',
	},
	{
		displayName: 'Output Language',
		name: 'outputLanguage',
		type: 'string',
		default: '',
		placeholder: 'e.g. en-us',
		description:
			'Language of any text in the image, lowercase with a hyphen (en-us, zh-cn). Empty: the service decides.',
	},
];

const extraBodyFieldsOption: INodeProperties = {
	displayName: 'Extra Body Fields',
	...STORED.extraBodyFields,
	description:
		'A JSON object merged into the request, for service fields this node has no parameter for (see the README)',
};

const submitTimeoutOption: INodeProperties = {
	...timeoutOption,
	displayName: 'Submit Timeout',
	name: 'submitTimeout',
	default: 60,
	description:
		'Seconds to wait for the service to accept the task. A request that times out is not sent again, since the task may exist. Defaults to 60.',
};

const aPlusGenerationOptions: INodeProperties[] = [
	{
		displayName: 'Plan Prompt',
		...STORED.planPrompt,
		description:
			"The module's prompt from 'A+ Plan → Create', which the service follows for an A+ image",
	},
	{
		displayName: 'Series Style Guide',
		...STORED.seriesStyleGuide,
		description: "The plan's style guide from 'A+ Plan → Create', so every module image matches",
	},
];

const maxGenerationsOption: INodeProperties = {
	displayName: 'Max Generations per Run',
	name: 'maxGenerations',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 10,
	description:
		'A spending guard: when more items than this come in, the run stops before the first submit, so nothing is billed. Read from the first item. Without this option there is no limit.',
};

/** Submit Generation's and Generate and Wait's parameters, as 0.2.0 showed them. */
export const generationProperties: INodeProperties[] = [
	billingNotice,
	promptProperty,
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	productNameProperty,
	sellingPointsProperty,
	platformProperty,
	...textFields,
];

/** The Options of Submit Generation; Generate and Wait adds the wait options and File Name. */
export function generationOptions(waits: boolean): INodeProperties[] {
	return [
		optionsCollection([
			...(waits ? waitOptions : []),
			...aPlusGenerationOptions,
			extraBodyFieldsOption,
			submitTimeoutOption,
			...(waits ? [generatedFileNameOption] : []),
			includeOtherFieldsOption,
			maxGenerationsOption,
		]),
	];
}
