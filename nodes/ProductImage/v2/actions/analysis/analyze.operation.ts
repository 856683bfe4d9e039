import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import {
	DETAILS,
	forOperation,
	imageUrlsProperty,
	optionsCollection,
	timeoutOption,
} from '../../../descriptions/common.descriptions';
import type { AnalysisRequest } from '../../../helpers/analysis';
import {
	buildAnalysisRequest,
	MAX_ANALYSIS_IMAGES,
	requestAnalysis,
} from '../../../helpers/analysis';
import { analysisProductDetails } from '../../descriptions/generation.descriptions';
import {
	imageSourceFields,
	includeOtherFieldsOption,
	itemsInParallelOption,
} from '../../descriptions/options.descriptions';
import { withInputFields } from '../../../helpers/parameters';
import { readField, shownImageFields } from '../../reading';
import { analysisReview } from '../../review';

export { hintInputFieldsAside as afterRun } from '../../../helpers/parameters';
export { includeOtherFieldsOption as inputFieldsOption };

/** The service guesses some facts; where the brief goes next is said where it is taken. */
const analysisOutputNotice: INodeProperties = {
	displayName:
		"Some product facts are the service's guesses from the photos, marked as inferred: check them before they reach a listing",
	name: 'analysisOutputNotice',
	type: 'notice',
	default: '',
};

export const description = forOperation('analysis', 'analyze', [
	analysisOutputNotice,
	...imageSourceFields(
		[
			{
				...imageUrlsProperty,
				description: `${imageUrlsProperty.description}. 1 to ${MAX_ANALYSIS_IMAGES} images in all.`,
			},
		],
		{ required: true },
	),
	// The optional Product Name is in Product Details, as the generations keep it.
	analysisProductDetails,
	optionsCollection([includeOtherFieldsOption, itemsInParallelOption, timeoutOption]),
]);

/** Analysis holds its request open up to the Timeout (120 s): items overlap rather than queue. */
export const runsConcurrently = true;

export function readParameters(this: IExecuteFunctions, itemIndex: number): AnalysisRequest {
	const productName = readField(this, 'productName', itemIndex, '', DETAILS.product);
	return buildAnalysisRequest(this, itemIndex, productName, shownImageFields(this, itemIndex));
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	request: AnalysisRequest,
): Promise<INodeExecutionData[]> {
	const json: IDataObject = await requestAnalysis(this, itemIndex, request);
	// The spec offers the brief in two fields: handed on once, or every later node carries it twice.
	json.formattedText ??= json.output_text;
	if (json.output_text === json.formattedText) delete json.output_text;
	Object.assign(json, analysisReview(json.analysis, json.formattedText));
	return [{ json: withInputFields(this, itemIndex, json, includeOtherFieldsOption) }];
}
