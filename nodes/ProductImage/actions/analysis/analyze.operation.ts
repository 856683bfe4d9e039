import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readImageInputs, resolveImageUrls } from '../../helpers/imageInputs';
import { analysisSchema } from '../../helpers/schemas';
import { readTimeoutMs } from '../../helpers/timeoutOption';
import { ENDPOINTS, requestResult } from '../../transport';
import {
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	optionsCollection,
	productNameProperty,
	timeoutOption,
} from '../common.descriptions';

export const MAX_ANALYSIS_IMAGES = 16;

const properties: INodeProperties[] = [
	productNameProperty,
	{ ...imageUrlsProperty, description: `${imageUrlsProperty.description} 1 to ${MAX_ANALYSIS_IMAGES} images in all.` },
	inputBinaryFieldsProperty,
	optionsCollection([timeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['analysis'], operation: ['analyze'] } },
	properties,
);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const timeoutMs = readTimeoutMs(this, itemIndex);
	const productName = String(this.getNodeParameter('productName', itemIndex, '')).trim();
	const images = readImageInputs(this, itemIndex, { min: 1, max: MAX_ANALYSIS_IMAGES });
	const imageUrls = await resolveImageUrls(this, itemIndex, images);
	const body: IDataObject = { image_urls: imageUrls };
	if (productName) body.product_name = productName;
	const { result, requestId } = await requestResult(
		this,
		{ purpose: 'analysis', method: 'POST', path: ENDPOINTS.analysis, body, itemIndex, timeoutMs },
		analysisSchema,
	);
	return [{ json: { ...result, ...(requestId ? { request_id: requestId } : {}) } as IDataObject }];
}
