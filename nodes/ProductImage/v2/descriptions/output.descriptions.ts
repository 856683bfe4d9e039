import type { INodeProperties } from 'n8n-workflow';
import { KEPT_FOR } from '../../serviceFacts';

/** n8n's pattern for nodes an AI agent uses as a tool; Raw is what version 1 outputs. */
export const OUTPUT = { raw: 'raw', simplified: 'simplified', selected: 'selected' } as const;

export interface OutputShape {
	/** The most used first. */
	simplified: readonly string[];
	/** Simplified of a task whose wait ran out: what a next sweep or an IF node decides by. */
	timedOut?: readonly string[];
	summary: string;
	/** The field Selected Fields always keeps: what the item is. */
	key: string;
	keyLabel: string;
	fields: Readonly<Record<string, string>>;
}

/** `generated_width`, not `width`: Edit Image passes fields on, so a `width` goes stale on resize. */
export const TASK_IMAGE_OUTPUT: OutputShape = {
	simplified: [
		'task_id',
		'status',
		'url',
		'images',
		'generated_width',
		'generated_height',
		'module',
		'target_size',
		'id',
		'title',
	],
	timedOut: ['task_id', 'status', 'timed_out', 'outcome', 'last_check_error', 'waited_seconds'],
	summary:
		"the task ID, status, image URL and generated size, the A+ module and its size, and the product's 'id' and 'title' when the input item has them; for a task whose wait ran out, its status, 'timed_out', 'outcome' and why the last status check could not be made",
	key: 'task_id',
	keyLabel: 'the task ID',
	fields: {
		asset_id: "The service's ID of the image file",
		below_target: 'Whether the image is smaller than its A+ module, so fitting it would enlarge it',
		completed_at: 'When the service finished the task',
		expires_at: `When the image URL stops working (${KEPT_FOR} after generation)`,
		generated_height: 'Height of the generated image in pixels, before any resize',
		generated_width: 'Width of the generated image in pixels, before any resize',
		image_count: 'How many images the task produced',
		image_index: "Position of this image among the task's images, from 0",
		images: "All images of the task, on an item that holds them together ('One Item per Task')",
		last_check_error:
			'Why the last status check could not be made, when the wait ran out while the service did not answer',
		module: 'The A+ module the image is for, such as hero',
		outcome:
			"On a task that did not end with images, what to do next: 'final' when the service ended it (looking again gives the same), 'lookAgainLater' when this run could not complete a step (the task may still finish)",
		status: "The task's status, such as succeeded",
		target_height: "Height in pixels the A+ module's image must have",
		target_size: "The A+ module's pixel size as width x height, such as 970x600",
		target_width: "Width in pixels the A+ module's image must have",
		timed_out: "Whether 'Max Wait Time' ran out before the task finished",
		url: `URL of the image, valid ${KEPT_FOR}`,
		waited_seconds: 'How long the node waited for the task',
	},
};

export const TASK_OUTPUT: OutputShape = {
	simplified: ['task_id', 'status', 'image_urls', 'created_at', 'completed_at', 'error'],
	summary:
		'the task ID, status, image URLs, when the task was created and finished, and why it did not succeed',
	key: 'task_id',
	keyLabel: 'the task ID',
	fields: {
		completed_at: 'When the service finished the task',
		created_at: 'When the task was sent',
		error: 'Why the task did not succeed; empty when it did',
		image_urls: `URLs of the task's images, valid ${KEPT_FOR}`,
		result: 'The finished task as the service returns it, with its images',
		status: "The task's status, such as succeeded",
	},
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
	summary:
		"the module, its prompt, the plan's style guide, the module's aspect ratio and size, the photos, the platform, the language and the notes",
	key: 'module',
	keyLabel: 'the module',
	fields: {
		aspect_ratio: "The module's shape as width:height, such as 97:60",
		global_style: 'The style guide that keeps all module images alike',
		image_urls: 'The product photos the plan was made from',
		language: "The plan's language",
		market: "The plan's market",
		module_index: 'Position of the module in the plan, from 0',
		module_title: "The module's title, where the service gives one",
		notes: 'Points to check before publishing: product facts, platform rules, limits',
		platform: "The plan's sales platform",
		purpose: 'What the module shows, such as core selling points',
		recommended_prompt: "The prompt for this module's image",
		target_height: "Height in pixels the module's image must have",
		target_size: "The module's pixel size as width x height, such as 970x600",
		target_width: "Width in pixels the module's image must have",
	},
};

/** Fields the panel names in other words: one term per thing ('Style Guide', 'Module Prompt'). */
const FIELD_TITLES: Readonly<Record<string, string>> = {
	global_style: 'Style Guide',
	recommended_prompt: 'Module Prompt',
};

/** An output field as a list title: `target_width` → "Target Width", `image_urls` → "Image URLs". */
function titleOf(field: string): string {
	if (FIELD_TITLES[field]) return FIELD_TITLES[field];
	return field
		.split('_')
		.map((word) =>
			word === 'url' || word === 'urls' || word === 'id'
				? word.toUpperCase().replace('URLS', 'URLs')
				: word.charAt(0).toUpperCase() + word.slice(1),
		)
		.join(' ');
}

export function outputProperties(shape: OutputShape, what: string): INodeProperties[] {
	return [
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'raw',
			options: [
				{
					name: 'Raw',
					value: OUTPUT.raw,
					description:
						'All fields the node outputs: what the next node of the chain reads. An AI agent using the node as a tool gets every one of them, the input photos too.',
				},
				{
					name: 'Selected Fields',
					value: OUTPUT.selected,
					description: `Only the fields chosen in 'Fields', plus ${shape.keyLabel}`,
				},
				{
					name: 'Simplified',
					value: OUTPUT.simplified,
					description: `At most 10 fields, the choice for an AI agent using the node as a tool: ${shape.summary}`,
				},
			],
			description: `How much of ${what} to pass on${'url' in shape.fields ? '; files stay on the items whatever the choice' : ''}. For an AI agent using the node as a tool, choose 'Simplified': it reads every field it gets.`,
		},
		{
			displayName: 'Fields',
			name: 'outputFields',
			type: 'multiOptions',
			default: [],
			options: Object.entries(shape.fields)
				.map(([field, description]) => ({ name: titleOf(field), value: field, description }))
				.sort((a, b) => a.name.localeCompare(b.name)),
			displayOptions: { show: { output: [OUTPUT.selected] } },
			description: `The fields to output besides ${shape.keyLabel}`,
		},
	];
}
