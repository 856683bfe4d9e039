import type { INodeProperties } from 'n8n-workflow';

/** Stored name, type and default, written once: neither version's panel drifts from the other's. */
export const STORED = {
	inputBinaryFields: {
		name: 'inputBinaryFields',
		type: 'string',
		default: '',
		placeholder: 'e.g. data, data_1',
	},
	binaryPropertyName: {
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		placeholder: 'e.g. data',
	},
	maxConcurrency: {
		name: 'maxConcurrency',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 50 },
		default: 5,
	},
	initialDelay: {
		name: 'initialDelay',
		type: 'number',
		typeOptions: { minValue: 0, numberPrecision: 1 },
		default: 5,
	},
	polling: { name: 'polling', type: 'options', default: 'adaptive' },
	pollInterval: {
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 0.1, numberPrecision: 1 },
		default: 5,
	},
	imagesOutput: { name: 'imagesOutput', type: 'options', default: 'perImage' },
	onTimeout: { name: 'onTimeout', type: 'options', default: 'error' },
	extraBodyFields: { name: 'extraBodyFields', type: 'json', default: '{}' },
	planPrompt: {
		name: 'planPrompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. The bottle on a mountain trail at sunrise, wide banner',
	},
	seriesStyleGuide: {
		name: 'seriesStyleGuide',
		type: 'string',
		typeOptions: { rows: 2 },
		default: '',
		placeholder: 'e.g. Cool blue tones, natural light, clean sans-serif text',
	},
	taskId: {
		name: 'taskId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. task_abc123',
	},
	productDescription: {
		name: 'productDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. Insulated steel water bottle, 750 ml, keeps drinks cold for 24 hours',
	},
} satisfies Record<string, Partial<INodeProperties>>;
