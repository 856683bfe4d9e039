import type { INodeProperties } from 'n8n-workflow';

import {
	forOperation,
	imageUrlsProperty,
	optionsCollection,
	productNameProperty,
	timeoutOption,
} from '../descriptions/common.descriptions';
import type { AnalysisRequest } from '../helpers/analysis';
import { buildAnalysisRequest, MAX_ANALYSIS_IMAGES, requestAnalysis } from '../helpers/analysis';
import { BOTH_IMAGE_FIELDS } from '../helpers/imageInputs';
import type { OperationModule } from '../router';
import { inputBinaryFieldsProperty, maxConcurrencyOption } from './descriptions';

/** What Analyze outputs, and where it goes next (version 1's words). */
const analysisOutputNotice: INodeProperties = {
	displayName:
		"Outputs the product's facts and a written brief ('formattedText'), which 'A+ Plan → Create' takes as its 'Product Description'",
	name: 'analysisOutputNotice',
	type: 'notice',
	default: '',
};

const analyze: OperationModule<AnalysisRequest> = {
	description: forOperation('analysis', 'analyze', [
		analysisOutputNotice,
		{
			...imageUrlsProperty,
			description: `${imageUrlsProperty.description}. 1 to ${MAX_ANALYSIS_IMAGES} images in all.`,
		},
		inputBinaryFieldsProperty,
		productNameProperty,
		optionsCollection([maxConcurrencyOption, timeoutOption]),
	]),
	readParameters(itemIndex) {
		const productName = this.getNodeParameter('productName', itemIndex, '');
		return buildAnalysisRequest(this, itemIndex, productName, BOTH_IMAGE_FIELDS);
	},
	async execute(itemIndex, request) {
		return [{ json: await requestAnalysis(this, itemIndex, request) }];
	},
	runsConcurrently: true,
};

export const operations = { analyze };
