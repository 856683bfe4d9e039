import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { collectImageUrls } from '../../helpers/imageInputs';
import { analysisSchema } from '../../helpers/schemas';
import { readTimeoutMs } from '../../helpers/timeoutOption';
import { parseResult } from '../../transport/envelope';
import { callService } from '../../transport/request';
import {
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	productNameProperty,
	timeoutOption,
} from '../common.descriptions';

export const ANALYSIS_PATH = '/v1/open/product-analysis';
export const MAX_ANALYSIS_IMAGES = 16;

const properties: INodeProperties[] = [
	productNameProperty,
	{ ...imageUrlsProperty, description: `${imageUrlsProperty.description} 1 to ${MAX_ANALYSIS_IMAGES} images in all.` },
	inputBinaryFieldsProperty,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [timeoutOption],
	},
];

export const description = updateDisplayOptions(
	{ show: { resource: ['analysis'], operation: ['analyze'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const timeoutMs = readTimeoutMs(this, itemIndex);
	const productName = String(this.getNodeParameter('productName', itemIndex, '')).trim();
	const imageUrls = await collectImageUrls(this, itemIndex, { min: 1, max: MAX_ANALYSIS_IMAGES });
	const body: IDataObject = { image_urls: imageUrls };
	if (productName) body.product_name = productName;
	const reply = await callService.call(this, {
		purpose: 'analysis',
		method: 'POST',
		path: ANALYSIS_PATH,
		body,
		itemIndex,
		timeoutMs,
	});
	const result = parseResult(this, analysisSchema, reply, 'analysis', itemIndex);
	return [{ json: { ...result, ...(reply.requestId ? { request_id: reply.requestId } : {}) } as IDataObject }];
}
