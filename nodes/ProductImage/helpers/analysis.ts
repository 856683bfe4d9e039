import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { productNameProperty } from '../descriptions/common.descriptions';
import { ENDPOINTS, requestResult } from '../transport';
import type { ImageInputs } from './imageInputs';
import { IMAGE_URLS, resolveImageUrls } from './imageInputs';
import { analysisSchema } from './schemas';

/** The most photos one analysis takes. */
export const MAX_ANALYSIS_IMAGES = 16;

/** An analysis, read and checked; the input binaries are not uploaded yet. */
export interface AnalysisRequest {
	timeoutMs: number;
	/** The Timeout option's label, for the advice on a request that ran out of time. */
	timeoutLabel: string;
	productName: string;
	images: ImageInputs;
}

/** Uploads the item's photos, then asks for the analysis: the service's reply and its request ID. */
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
