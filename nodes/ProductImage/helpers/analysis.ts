import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { productNameProperty, timeoutOption } from '../descriptions/common.descriptions';
import { ENDPOINTS, requestResult } from '../transport/request';
import type { ShownImageFields } from './imageInputs';
import { IMAGE_URLS, readImageInputs, resolveImageUrls } from './imageInputs';
import { readTimeoutMs } from './parameters';

export const MAX_ANALYSIS_IMAGES = 16;

const analysisSchema = z
	.object({
		analysis: z
			.object({
				attributes: z.array(z.object({ evidence: z.string().optional() }).passthrough()).optional(),
			})
			.passthrough(),
		formattedText: z.string().optional(),
		output_text: z.string().optional(),
	})
	.passthrough();

export type AnalysisRequest = ReturnType<typeof buildAnalysisRequest>;

/** Both versions keep Timeout alike; the product name and the photos' fields are as each shows them. */
export function buildAnalysisRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	productName: unknown,
	imageFields: ShownImageFields,
) {
	return {
		timeoutMs: readTimeoutMs(context, itemIndex, timeoutOption),
		productName: String(productName).trim(),
		images: readImageInputs(context, itemIndex, imageFields, { min: 1, max: MAX_ANALYSIS_IMAGES }),
	};
}

export async function requestAnalysis(
	context: IExecuteFunctions,
	itemIndex: number,
	{ timeoutMs, productName, images }: AnalysisRequest,
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
				timeout: timeoutOption.displayName,
				fields: { image_urls: IMAGE_URLS, product_name: productNameProperty.displayName },
			},
		},
		analysisSchema,
	);
	return { ...result, ...(requestId ? { request_id: requestId } : {}) };
}
