import type { INodeProperties } from 'n8n-workflow';

import { inCurrentVersion } from './versions';

/**
 * The Output choice, n8n's pattern for nodes an AI agent uses as a tool: items of more
 * than ten fields come whole (Raw, what version 1 outputs), reduced to the ten a next step
 * needs (Simplified), or with the fields chosen (Selected Fields).
 */
export const OUTPUT = { raw: 'raw', simplified: 'simplified', selected: 'selected' } as const;

export interface OutputShape {
	/** The at most ten fields of Simplified, the most used first. */
	simplified: readonly string[];
	/** The field Selected Fields always keeps: what the item is. */
	key: string;
	/** Every field Selected Fields offers. */
	fields: readonly string[];
}

export const TASK_IMAGE_OUTPUT: OutputShape = {
	simplified: [
		'task_id',
		'status',
		'url',
		'images',
		'width',
		'height',
		'module',
		'target_width',
		'target_height',
		'expires_at',
	],
	key: 'task_id',
	fields: [
		'asset_id',
		'below_target',
		'completed_at',
		'expires_at',
		'height',
		'image_count',
		'image_index',
		'images',
		'last_check_error',
		'module',
		'outcome',
		'status',
		'target_height',
		'target_size',
		'target_width',
		'timed_out',
		'url',
		'waited_seconds',
		'width',
	],
};

export const TASK_OUTPUT: OutputShape = {
	simplified: ['task_id', 'status', 'image_urls', 'created_at', 'completed_at', 'error'],
	key: 'task_id',
	fields: ['completed_at', 'created_at', 'error', 'image_urls', 'result', 'status'],
};

export const PLAN_MODULE_OUTPUT: OutputShape = {
	simplified: [
		'module',
		'recommended_prompt',
		'global_style',
		'aspect_ratio',
		'target_width',
		'target_height',
		'image_urls',
		'platform',
		'language',
		'notes',
	],
	key: 'module',
	fields: [
		'aspect_ratio',
		'global_style',
		'image_urls',
		'language',
		'market',
		'module_index',
		'notes',
		'platform',
		'purpose',
		'recommended_prompt',
		'target_height',
		'target_size',
		'target_width',
	],
};

/** An output field as a list title: `target_width` → "Target Width", `image_urls` → "Image URLs". */
function titleOf(field: string): string {
	return field
		.split('_')
		.map((word) =>
			word === 'url' || word === 'urls' || word === 'id'
				? word.toUpperCase().replace('URLS', 'URLs')
				: word.charAt(0).toUpperCase() + word.slice(1),
		)
		.join(' ');
}

const quoted = (fields: readonly string[]) => fields.map((field) => `'${field}'`).join(', ');

/** The Output choice and its field list for one operation's items (not in version 1). */
export function outputProperties(shape: OutputShape, what: string): INodeProperties[] {
	return inCurrentVersion([
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'raw',
			options: [
				{
					name: 'Raw',
					value: OUTPUT.raw,
					description: `Every field of ${what}`,
				},
				{
					name: 'Selected Fields',
					value: OUTPUT.selected,
					description: `Only the fields chosen below, always with '${shape.key}'`,
				},
				{
					name: 'Simplified',
					value: OUTPUT.simplified,
					description: `At most 10 fields of ${what}: ${quoted(shape.simplified)}`,
				},
			],
			description: `Which fields of ${what} to output, such as for an AI agent that uses this node as a tool`,
		},
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'multiOptions',
			default: [],
			options: shape.fields.map((field) => ({
				name: titleOf(field),
				value: field,
				description: `The output field '${field}'`,
			})),
			displayOptions: { show: { output: [OUTPUT.selected] } },
			description: `The fields to output besides '${shape.key}'`,
		},
	]);
}
