import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import {
	forOperation,
	optionsCollection,
	planImageUrlsProperty,
	STORED,
	timeoutOption,
} from '../descriptions/common.descriptions';
import { A_PLUS_MODULES, moduleTitle, planModuleItems } from '../helpers/aPlus';
import type { PlanRequest } from '../helpers/aPlusPlan';
import { buildPlanRequest, requestPlan } from '../helpers/aPlusPlan';
import { BOTH_IMAGE_FIELDS } from '../helpers/imageInputs';
import { propertyIn } from '../helpers/parameters';
import type { OperationModule } from '../router';
import { inputBinaryFieldsProperty, maxConcurrencyOption, platformProperty } from './descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Modules',
		name: 'modules',
		type: 'multiOptions',
		required: true,
		default: ['hero', 'core', 'usage'],
		description: 'A+ modules to plan, each with the pixel size its image must fill',
		options: A_PLUS_MODULES.map((module) => ({
			name: moduleTitle(module),
			value: module.id,
			description: `${module.purpose}. Sent as ${module.id}.`,
		})).sort((a, b) => a.name.localeCompare(b.name)),
	},
	{
		displayName: 'Product Description',
		...STORED.productDescription,
		description:
			"What the product is. The brief of 'Analysis → Analyze' is the recommended source.",
	},
	planImageUrlsProperty,
	inputBinaryFieldsProperty,
	platformProperty,
	{
		displayName: 'Market',
		name: 'market',
		type: 'string',
		default: '',
		placeholder: 'e.g. US',
		description: 'Two-letter market code, such as US, DE or JP',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: '',
		placeholder: 'e.g. en-US',
		description: 'Language of the plan, such as en-US or zh-CN',
	},
	optionsCollection([
		maxConcurrencyOption,
		{
			displayName: 'One Item per Module',
			name: 'splitModules',
			type: 'boolean',
			default: false,
			description:
				'Whether to output one item per planned module, carrying its prompt, the style guide, the notes and the target size and aspect ratio, ready for a Generate node. Off: the whole plan as one item.',
		},
		timeoutOption,
	]),
];

/** Version 1 keeps every field at the top, as text. */
function readPlan(context: IExecuteFunctions, itemIndex: number): PlanRequest {
	const read = (name: string) =>
		context.getNodeParameter(name, itemIndex, String(propertyIn(properties, name).default));
	return buildPlanRequest(context, itemIndex, properties, {
		market: read('market'),
		language: read('language'),
		platform: read('platform'),
		productDescription: String(read('productDescription')).trim(),
		imageFields: BOTH_IMAGE_FIELDS,
	});
}

const create: OperationModule<PlanRequest> = {
	description: forOperation('aPlusPlan', 'create', properties),
	readParameters(itemIndex) {
		return readPlan(this, itemIndex);
	},
	async execute(itemIndex, request) {
		const { plan } = await requestPlan(this, itemIndex, request);
		if (request.splitModules)
			return planModuleItems(plan, request.modules, { ownKeys: false }).map((json) => ({ json }));
		return [{ json: plan as IDataObject }];
	},
	runsConcurrently: true,
};

export const operations = { create };
