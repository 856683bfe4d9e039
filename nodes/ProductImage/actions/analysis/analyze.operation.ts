import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ImageInputs } from '../../helpers/imageInputs';
import { IMAGE_URLS, readImageInputs, resolveImageUrls } from '../../helpers/imageInputs';
import { analysisSchema } from '../../helpers/schemas';
import { DETAILS, readField } from '../../descriptions/choices';
import { analysisProductDetails } from '../../descriptions/generation.descriptions';
import { inCurrentVersion, inVersion1, isVersion1 } from '../../descriptions/versions';
import { withInputFields } from '../../helpers/inputFields';
import { readTimeoutMs } from '../../helpers/parameters';
import { ENDPOINTS, requestResult } from '../../transport';
import {
	imageSourceFields,
	imageUrlsProperty,
	includeOtherFieldsOption,
	itemsInParallelOption,
	maxConcurrencyOption,
	optionsCollection,
	productNameProperty,
	timeoutOption,
} from '../../descriptions/common.descriptions';

export const MAX_ANALYSIS_IMAGES = 16;

const properties: INodeProperties[] = [
	{
		displayName:
			"Outputs the product's facts and a written brief ('formattedText'), which 'A+ Plan → Create' takes as its 'Product Description'",
		name: 'analysisOutputNotice',
		type: 'notice',
		default: '',
	},
	...imageSourceFields(
		[
			{
				...imageUrlsProperty,
				description: `${imageUrlsProperty.description}. 1 to ${MAX_ANALYSIS_IMAGES} images in all.`,
			},
		],
		{ required: true },
	),
	...inVersion1([productNameProperty, optionsCollection([maxConcurrencyOption, timeoutOption])]),
	// The current version keeps the optional Product Name in Product Details, as the generations do.
	...inCurrentVersion([
		analysisProductDetails,
		optionsCollection([includeOtherFieldsOption, itemsInParallelOption, timeoutOption]),
	]),
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
		productName: String(readField(this, 'productName', itemIndex, '', DETAILS.product)).trim(),
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
	const json: IDataObject = { ...result, ...(requestId ? { request_id: requestId } : {}) };
	// The spec offers the brief in two fields; the current version hands it on once, as
	// 'formattedText', whichever came: every node after this one would carry it twice.
	if (!isVersion1(this)) {
		json.formattedText ??= result.output_text;
		if (json.output_text === json.formattedText) delete json.output_text;
	}
	return [{ json: withInputFields(this, itemIndex, json) }];
}
