import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { productNameProperty } from '../descriptions/common.descriptions';
import { ENDPOINTS, requestResult } from '../transport/request';
import type { ImageInputs } from './imageInputs';
import { IMAGE_URLS, resolveImageUrls } from './imageInputs';
import { analysisSchema } from './schemas';

export const MAX_ANALYSIS_IMAGES = 16;

/** An analysis, read and checked; the input binaries are not uploaded yet. */
export interface AnalysisRequest {
	timeoutMs: number;
	timeoutLabel: string;
	productName: string;
	images: ImageInputs;
}

export async function requestAnalysis(
	context: IExecuteFunctions,
	itemIndex: number,
	{ timeoutMs, timeoutLabel, productName, images }: AnalysisRequest,
): Promise<IDataObject> {
	const imageUrls = await resolveImageUrls(context, itemIndex, images);
	const body: IDataObject = { image_urls: imageUrls };
	if (productName) body.product_name = productName;
	const { result, requestId } = await requestResult(
		context,
		{
			kind: 'analysis',
			method: 'POST',
			path: ENDPOINTS.analysis,
			body,
			itemIndex,
			timeoutMs,
			wording: {
				timeout: timeoutLabel,
				fields: { image_urls: IMAGE_URLS, product_name: productNameProperty.displayName },
			},
		},
		analysisSchema,
	);
	return { ...result, ...(requestId ? { request_id: requestId } : {}) };
}
