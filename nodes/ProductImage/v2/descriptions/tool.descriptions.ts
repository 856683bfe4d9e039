import type { INodeProperties } from 'n8n-workflow';

import { SERVICE_NAME } from '../../serviceFacts';
import { OPERATION_LISTS } from '../../descriptions/operations';

export const NODE_DESCRIPTION =
	'Upload product photos, analyze products, plan A+ content and generate product images';

// What an AI agent reads about its tool. n8n passes the model this text and, for a field set to
// "let the model define", only the field's name: what each field takes is said here. A node that
// brings its own 'toolDescription' gets none of n8n's.
const URLS =
	"'Image URLs': product photos as http or https addresses, a list or one text separated by commas.";
const TASK_ID = "'Task ID': the 'task_id' an earlier call returned.";
const GENERATION = [
	"'Prompt': what the image shows (product, background, lighting, composition) in one or two sentences.",
	URLS,
	"'Aspect Ratio': width:height, such as 1:1 for a listing image or 16:9 for a banner.",
	"Each call starts a generation the service bills: call once per image wanted; for an earlier call's images, wait on its 'task_id' instead of calling again.",
];
const TAKES: Record<string, string[]> = {
	generateAndWait: GENERATION,
	generate: GENERATION,
	download: ["'URL': the address of one image."],
	upload: [],
	get: [TASK_ID],
	wait: [TASK_ID],
	analyze: [URLS, "'Product Name': the product's name."],
	create: [
		"'Modules': A+ module codes, such as hero, core, usage, size.",
		"'Product Description': the product in a few sentences.",
		URLS,
	],
};

const onTool = (show: NonNullable<INodeProperties['displayOptions']>['show']) => ({
	show: { '@tool': [true], ...show },
});

export const toolDescriptions: INodeProperties[] = [
	...Object.entries(OPERATION_LISTS).flatMap(([resource, list]) =>
		list.options.map((operation): INodeProperties => ({
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			typeOptions: { rows: 4 },
			default: [
				`${operation.description}, with the ${SERVICE_NAME}.`,
				...TAKES[operation.value],
			].join(' '),
			description: 'What the AI agent reads about this tool, and what each field it fills takes',
			displayOptions: onTool({
				'@version': [{ _cnd: { gte: 2 } }],
				resource: [resource],
				operation: [operation.value],
			}),
		})),
	),
	// n8n's own pair, as version 1's tools got it.
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
		displayOptions: onTool({ '@version': [1] }),
	},
	{
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		required: true,
		typeOptions: { rows: 2 },
		default: NODE_DESCRIPTION,
		displayOptions: onTool({ '@version': [1], descriptionType: ['manual'] }),
	},
];
