import type { INodeProperties } from 'n8n-workflow';

import {
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	platformProperty,
	productNameProperty,
	timeoutOption,
} from '../common.descriptions';

/** The submit parameters shared by Generate and Generate and Wait. */
export const generationProperties: INodeProperties[] = [
	{
		displayName:
			"Each run submits a new generation, which the service bills. n8n's Retry On Fail (node Settings) would submit and bill again: to resume after a failure, use Task → Wait for Task with the task ID from the error.",
		name: 'billingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'White studio background, soft shadow, product centred',
		description: 'What the image should show. A prompt, an image, or both are needed.',
	},
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	productNameProperty,
	{
		displayName: 'Selling Points',
		name: 'sellingPoints',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'Keeps drinks cold 24 h; leak-proof lid',
		description: 'What makes the product worth buying, in a sentence or a list; the image can show or state it',
	},
	platformProperty,
	{
		displayName: 'Size',
		name: 'size',
		type: 'string',
		default: '1:1',
		placeholder: '1:1',
		description: 'Aspect ratio as width:height, such as 1:1, 4:3 or 16:9',
	},
	{
		displayName: 'Resolution',
		name: 'resolution',
		type: 'string',
		default: '1k',
		placeholder: '1k',
		description: 'Resolution label, such as 1k or 2k',
	},
	{
		displayName: 'Output Language',
		name: 'outputLanguage',
		type: 'string',
		default: '',
		placeholder: 'en-us',
		description: 'Language of any text in the image, lowercase with a hyphen (en-us, zh-cn). Empty: the service decides.',
	},
];

export const extraBodyFieldsOption: INodeProperties = {
	displayName: 'Extra Body Fields',
	name: 'extraBodyFields',
	type: 'json',
	default: '{}',
	description:
		'JSON object merged into the request body, for fields this node has no parameter for, such as {"plan_prompt": "...", "series_style_guide": "..."} of A+ generation',
};

export const submitTimeoutOption: INodeProperties = {
	...timeoutOption,
	displayName: 'Submit Timeout',
	name: 'submitTimeout',
	default: 60,
	description:
		'Seconds to wait for the service to accept the task. A submit that times out is not sent again, since the task may exist.',
};

/** The two A+ generation fields the spec names (`plan_prompt`, `series_style_guide`). */
export const aPlusGenerationOptions: INodeProperties[] = [
	{
		displayName: 'Plan Prompt',
		name: 'planPrompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		description: "A module's recommended_prompt from A+ Plan → Create, sent as plan_prompt",
	},
	{
		displayName: 'Series Style Guide',
		name: 'seriesStyleGuide',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		description: "The plan's global_style from A+ Plan → Create, sent as series_style_guide so every module image matches",
	},
];
