import type {
	INode,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';

// What an AI agent reads about the node as its tool, as n8n makes it: the tool type is the node's
// description named '<name>Tool' (n8n's convertNodeToAiTool), the node's parameters filled with
// their defaults, and the text n8n-workflow's getToolDescriptionForNode chooses. A saved tool's
// own words and version 1's description stay as they were.

const node = new ProductImage();
const own = node.description.properties;
// n8n adds this pair, as convertNodeToAiTool does, only to a node that brings no 'toolDescription'.
const n8nPair: INodeProperties[] = [
	{
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	},
	{
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: node.description.description,
		displayOptions: { show: { descriptionType: ['manual'] } },
	},
];
const toolType = {
	...node,
	description: {
		...node.description,
		name: `${node.description.name}Tool`,
		properties: own.some((p) => p.name === 'toolDescription') ? own : [...n8nPair, ...own],
	},
} as INodeType;

function toolText(typeVersion: number, stored: INodeParameters): string {
	const tool = { name: 'Product Image', typeVersion, parameters: stored } as unknown as INode;
	const description = toolType.description as INodeTypeDescription;
	tool.parameters = NodeHelpers.getNodeParameters(
		description.properties,
		stored,
		true,
		false,
		tool,
		description,
	) as INodeParameters;
	return NodeHelpers.getToolDescriptionForNode(tool, toolType) as string;
}

test('a new Generate and Wait tool says what it does, what each field the model fills takes and that a call bills', () => {
	const text = toolText(2, { resource: 'image', operation: 'generateAndWait' });
	expect(text).toMatch(/^Generate images, wait until they are ready/);
	expect(text).toContain("'Prompt': what the image shows");
	expect(text).toContain("'Image URLs': product photos as http or https addresses");
	expect(text).toContain("'Aspect Ratio': width:height");
	expect(text).toContain('the service bills');
});

test.each([
	['task', 'wait', "'Task ID': the 'task_id' an earlier call returned"],
	['aPlusPlan', 'create', "'Modules': A+ module codes, such as hero"],
	['image', 'download', "'URL': the address of one image"],
])('the %s → %s tool says what its fields take', (resource, operation, takes) => {
	const text = toolText(2, { resource, operation });
	expect(text).toContain(takes);
	expect(text).not.toContain('bills');
});

test("a saved tool's own description is what the agent reads", () => {
	const own = 'Generates one product image';
	expect(
		toolText(2, {
			resource: 'image',
			operation: 'generateAndWait',
			descriptionType: 'manual',
			toolDescription: own,
		}),
	).toBe(own);
});

test('version 1 keeps the description n8n made for it: the action, or the text set manually', () => {
	expect(toolText(1, { resource: 'image', operation: 'generateAndWait' })).toBe(
		'Generate images and wait in Product Image',
	);
	expect(
		toolText(1, {
			resource: 'image',
			operation: 'generateAndWait',
			descriptionType: 'manual',
			toolDescription: 'Own words',
		}),
	).toBe('Own words');
});

test('the plain node, not a tool, shows none of it', () => {
	const plain = NodeHelpers.getNodeParameters(
		node.description.properties,
		{ resource: 'image', operation: 'generateAndWait' },
		true,
		false,
		{ typeVersion: 2, parameters: {} } as unknown as INode,
		node.description,
	) as INodeParameters;
	expect(Object.keys(plain)).not.toContain('toolDescription');
});
