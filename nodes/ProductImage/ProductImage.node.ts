import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { properties, SUBTITLE } from './actions/properties';
import { router } from './actions/router';
import { DEFAULT_VERSION, NODE_VERSIONS } from './descriptions/versions';
import { productImageApiConnection } from './methods/credentialTest';

export class ProductImage implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Product Image',
		name: 'productImage',
		icon: { light: 'file:productImage.svg', dark: 'file:productImage.dark.svg' },
		group: ['transform'],
		version: NODE_VERSIONS,
		defaultVersion: DEFAULT_VERSION,
		subtitle: SUBTITLE,
		description:
			'Upload product photos, analyze products, plan A+ content and generate product images',
		defaults: { name: 'Product Image' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'productImageApi', required: true, testedBy: 'productImageApiConnection' },
		],
		properties,
	};

	methods = {
		// The key is the `testedBy` name above.
		credentialTest: { productImageApiConnection },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
