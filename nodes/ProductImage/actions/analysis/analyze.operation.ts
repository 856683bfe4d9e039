import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ImageInputs } from '../../helpers/imageInputs';
import { readImageInputs, resolveImageUrls } from '../../helpers/imageInputs';
import { analysisSchema } from '../../helpers/schemas';
import { readTimeoutMs } from '../../helpers/parameters';
import { nodeVersion } from '../../descriptions/versions';
import { ENDPOINTS, requestResult } from '../../transport';
import {
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	maxConcurrencyOption,
	optionsCollection,
	productNameProperty,
	timeoutOption,
} from '../../descriptions/common.descriptions';

export const MAX_ANALYSIS_IMAGES = 16;

const properties: INodeProperties[] = [
	{
		displayName:
			"The text to use next is the output's formattedText: the product brief, written for A+ Plan → Create's Product Description (which takes it by itself from version 2 on) or a generation's prompt. analysis holds the facts, each attribute marked visible, provided or inferred; output_text repeats formattedText.",
		name: 'analysisOutputNotice',
		type: 'notice',
		default: '',
	},
	productNameProperty,
	{
		...imageUrlsProperty,
		description: `${imageUrlsProperty.description} 1 to ${MAX_ANALYSIS_IMAGES} images in all.`,
	},
	inputBinaryFieldsProperty,
	optionsCollection([maxConcurrencyOption, timeoutOption]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['analysis'], operation: ['analyze'] } },
	properties,
);

/** Analysis holds its request open up to the Timeout (120 s): items overlap rather than queue. */
export const runsConcurrently = true;

interface Parameters {
	timeoutMs: number;
	productName: string;
	images: ImageInputs;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	return {
		timeoutMs: readTimeoutMs(this, itemIndex, timeoutOption),
		productName: String(this.getNodeParameter('productName', itemIndex, '')).trim(),
		images: readImageInputs(this, itemIndex, { min: 1, max: MAX_ANALYSIS_IMAGES }),
	};
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ timeoutMs, productName, images }: Parameters,
): Promise<INodeExecutionData[]> {
	const imageUrls = await resolveImageUrls(this, itemIndex, images);
	const body: IDataObject = { image_urls: imageUrls };
	if (productName) body.product_name = productName;
	const { result, requestId } = await requestResult(
		this,
		{ kind: 'analysis', method: 'POST', path: ENDPOINTS.analysis, body, itemIndex, timeoutMs },
		analysisSchema,
	);
	const json: IDataObject = { ...result, ...(requestId ? { request_id: requestId } : {}) };
	// The spec offers the brief in two fields; version 3 hands on both, whichever one came.
	if (nodeVersion(this) >= 3) {
		const brief = result.formattedText ?? result.output_text;
		if (brief !== undefined) {
			json.formattedText ??= brief;
			json.output_text ??= brief;
		}
	}
	return [{ json }];
}
