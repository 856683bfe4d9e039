import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { OPERATION_LISTS, resourceProperty, SUBTITLE } from './descriptions/operations';
import { DEFAULT_VERSION, NODE_VERSIONS } from './descriptions/versions';
import { productImageApiConnection } from './methods/credentialTest';
import { router } from './router';
import { properties as version1Properties, version1 } from './v1/properties';
import { withBuilderHints } from './v2/descriptions/builderHints';
import { NODE_DESCRIPTION, toolDescriptions } from './v2/descriptions/tool.descriptions';
import { properties as version2Properties, version2 } from './v2/properties';

/** One class for both versions: n8n's registry scanner finds the credential test and icon here. */
function shownIn(versions: NonNullable<IDisplayOptions['show']>['@version']) {
	return (property: INodeProperties): INodeProperties => {
		const own = property.displayOptions ?? {};
		return {
			...property,
			displayOptions: { ...own, show: { ...(own.show ?? {}), '@version': versions } },
		};
	};
}

// Both versions show the Resource and Operation lists alike. n8n's builder tools read one list of
// all versions' parameters, where the first of a name wins: the current version's come first, so
// its parameters and their hints are the ones described.
const properties: INodeProperties[] = [
	...toolDescriptions,
	...withBuilderHints([
		resourceProperty,
		...Object.values(OPERATION_LISTS),
		...version2Properties.map(shownIn([{ _cnd: { gte: 2 } }])),
	]),
	...version1Properties.map(shownIn([1])),
];

export class ProductImage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Product Image',
		name: 'productImage',
		icon: { light: 'file:productImage.svg', dark: 'file:productImage.dark.svg' },
		group: ['transform'],
		version: NODE_VERSIONS,
		defaultVersion: DEFAULT_VERSION,
		subtitle: SUBTITLE,
		description: NODE_DESCRIPTION,
		defaults: { name: 'Product Image' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'productImageApi', required: true, testedBy: 'productImageApiConnection' },
		],
		// Read by n8n's AI workflow builder and its MCP builder tools to choose and wire the node.
		builderHint: {
			searchHint:
				"Turns product photos (image URLs or binary files) into e-commerce images with a hosted AI service: studio and lifestyle shots, Amazon A+ module images. A+ chain: Analysis → Analyze, then A+ Plan → Create (one item per module), then Image → Generate and Wait with generationSource 'aPlusModule', then Edit Image to each item's target_width × target_height. Every generation is billed: to collect a task after a stop use Task → Wait for Completion with its task_id, never generate again, and leave Retry On Fail off.",
			relatedNodes: [
				{
					nodeType: 'n8n-nodes-base.editImage',
					relationHint:
						"Fits each A+ image to its module's exact pixel size: Resize, Ignore Aspect Ratio, width target_width, height target_height",
				},
				{
					nodeType: 'n8n-nodes-base.shopify',
					relationHint:
						"Source of product photos: a product's images field goes into imageUrls as it is",
				},
				{
					nodeType: 'n8n-nodes-base.wooCommerce',
					relationHint:
						"Source of product photos: a product's images field goes into imageUrls as it is",
				},
				{
					nodeType: 'n8n-nodes-base.httpRequest',
					relationHint:
						"Fetches products from a store without its own node: image URLs for imageUrls, or files with imageSource 'binary'",
				},
				{
					nodeType: 'n8n-nodes-base.splitOut',
					relationHint:
						'Makes one item per product or per image URL: Image → Download takes one URL per item',
				},
			],
		},
		properties,
	};

	methods = {
		// The key is the `testedBy` name above.
		credentialTest: { productImageApiConnection },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this, this.getNode().typeVersion < 2 ? version1 : version2);
	}
}
