import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

/** Both versions show them alike; the canvas subtitle reads its words from them. */
export const resourceProperty: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'A+ Plan', value: 'aPlusPlan' },
		{ name: 'Analysis', value: 'analysis' },
		{ name: 'Image', value: 'image' },
		{ name: 'Task', value: 'task' },
	],
	default: 'image',
};

/** A resource's Operation list: both versions show it alike. */
function operationList(
	resource: string,
	defaultOperation: string,
	options: Array<INodePropertyOptions & { value: string }>,
) {
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource] } },
		options,
		default: defaultOperation,
	} satisfies INodeProperties;
}

export const OPERATION_LISTS = {
	image: operationList('image', 'generateAndWait', [
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
			description: 'Submit an image generation task and output its task ID without waiting',
			action: 'Submit image generation without waiting',
		},
		{
			name: 'Upload',
			value: 'upload',
			description: "Upload an image file and get its URL for 'Image URLs'",
			action: 'Upload image',
		},
	]),
	task: operationList('task', 'get', [
		{
			name: 'Get',
			value: 'get',
			description: 'Retrieve a task: its status and, once finished, its image URLs',
			action: 'Get task status',
		},
		{
			name: 'Wait for Completion',
			value: 'wait',
			description: 'Wait for a task to finish and output its images as files',
			action: 'Wait for task to complete',
		},
	]),
	analysis: operationList('analysis', 'analyze', [
		{
			name: 'Analyze',
			value: 'analyze',
			description:
				'Run a product analysis of the photos: product facts and a written product brief',
			action: 'Analyze product photos',
		},
	]),
	aPlusPlan: operationList('aPlusPlan', 'create', [
		{
			name: 'Create',
			value: 'create',
			description: 'Create a new A+ plan: a prompt per module, a style guide and notes',
			action: 'Create A+ plan',
		},
	]),
};

/** The words of each resource's operations: "Generate and Wait · Image". */
function subtitleWords(): Record<string, string> {
	const words: Record<string, string> = {};
	const names = (property: INodeProperties) =>
		(property.options ?? []) as Array<{ name: string; value: string }>;
	for (const resource of names(resourceProperty)) {
		const list = OPERATION_LISTS[resource.value as keyof typeof OPERATION_LISTS];
		for (const operation of names(list))
			words[`${resource.value}:${operation.value}`] = `${operation.name} · ${resource.name}`;
	}
	return words;
}

/** The canvas shows words, not stored values, read from the lists so a renamed label flows through. */
export const SUBTITLE = `={{ (${JSON.stringify(subtitleWords())})[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
