import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { z } from 'zod';

import { A_PLUS_MODULE_IDS, A_PLUS_MODULES } from '../../helpers/aPlusModules';
import type { ImageInputs } from '../../helpers/imageInputs';
import { readImageInputs, resolveImageUrls } from '../../helpers/imageInputs';
import { planModuleItems } from '../../helpers/planItems';
import { planSchema } from '../../helpers/schemas';
import { readTimeoutMs } from '../../helpers/timeoutOption';
import { validateParameter } from '../../helpers/validate';
import { ENDPOINTS, requestResult } from '../../transport';
import {
	imageUrlsProperty,
	inputBinaryFieldsProperty,
	optionsCollection,
	platformProperty,
	maxConcurrencyOption,
	timeoutOption,
} from '../common.descriptions';

const properties: INodeProperties[] = [
	{
		displayName: 'Product Description',
		name: 'productDescription',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		description: "What the product is. The Analyze operation's formattedText is the recommended source.",
	},
	{ ...imageUrlsProperty, description: `${imageUrlsProperty.description} At least 1 image.` },
	inputBinaryFieldsProperty,
	{
		displayName: 'Modules',
		name: 'modules',
		type: 'multiOptions',
		required: true,
		default: ['hero', 'core', 'usage'],
		description: 'A+ modules to plan, each with its default target size',
		options: A_PLUS_MODULES.map((module) => ({
			name: `${module.id}: ${module.purpose} (${module.width}×${module.height})`,
			value: module.id,
		})),
	},
	platformProperty,
	{
		displayName: 'Market',
		name: 'market',
		type: 'string',
		default: '',
		placeholder: 'US',
		description: 'Two-letter market code, such as US, DE or JP',
	},
	{
		displayName: 'Language',
		name: 'language',
		type: 'string',
		default: '',
		placeholder: 'en-US',
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
					'Whether to output one item per planned module, carrying its prompt, the global style, the notes and the target size and aspect ratio, ready for a Generate node',
			},
			timeoutOption,
		]),
];

export const description = updateDisplayOptions(
	{ show: { resource: ['aPlusPlan'], operation: ['create'] } },
	properties,
);

const modulesSchema = z
	.array(z.string())
	.min(1, 'choose at least one module')
	.superRefine((modules, context) => {
		const unknown = modules.filter((id) => !A_PLUS_MODULE_IDS.includes(id));
		if (unknown.length) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				message: `unknown module ${unknown.map((id) => `"${id}"`).join(', ')}; known: ${A_PLUS_MODULE_IDS.join(', ')}`,
			});
		}
	});

const optionalCode = (pattern: RegExp, message: string) =>
	z.string().trim().refine((value) => value === '' || pattern.test(value), message);

function asList(value: unknown): unknown {
	return typeof value === 'string' ? value.split(',').map((entry) => entry.trim()).filter(Boolean) : value;
}

/** The spec shows `zh-CN`: the language in lowercase, a two-letter region in uppercase. */
function languageTag(value: string): string {
	return value
		.split('-')
		.map((part, index) => (index === 0 ? part.toLowerCase() : part.length === 2 ? part.toUpperCase() : part))
		.join('-');
}

/** Planning holds its request open up to the Timeout (120 s): items overlap rather than queue. */
export const runsConcurrently = true;

interface Parameters {
	fields: IDataObject;
	modules: string[];
	images: ImageInputs;
	timeoutMs: number;
	splitModules: boolean;
}

export function readParameters(this: IExecuteFunctions, itemIndex: number): Parameters {
	const modules = validateParameter(this, itemIndex, 'Modules', modulesSchema, asList(this.getNodeParameter('modules', itemIndex, [])));
	const market = validateParameter(
		this,
		itemIndex,
		'Market',
		optionalCode(/^[A-Za-z]{2}$/, 'must be a two-letter market code, such as US'),
		this.getNodeParameter('market', itemIndex, ''),
	);
	const language = validateParameter(
		this,
		itemIndex,
		'Language',
		optionalCode(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as en-US or zh-CN'),
		this.getNodeParameter('language', itemIndex, ''),
	);
	const timeoutMs = readTimeoutMs(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const productDescription = String(this.getNodeParameter('productDescription', itemIndex, '')).trim();
	const platform = String(this.getNodeParameter('platform', itemIndex, '')).trim();
	const images = readImageInputs(this, itemIndex, { min: 1 });

	const fields: IDataObject = { modules };
	if (productDescription) fields.product_description = productDescription;
	if (platform) fields.platform = platform;
	if (market) fields.market = market.toUpperCase();
	if (language) fields.language = languageTag(language);
	return { fields, modules, images, timeoutMs, splitModules: options.splitModules === true };
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	{ fields, modules, images, timeoutMs, splitModules }: Parameters,
): Promise<INodeExecutionData[]> {
	const body: IDataObject = { image_urls: await resolveImageUrls(this, itemIndex, images), ...fields };
	const { result: plan, requestId } = await requestResult(
		this,
		{ purpose: 'plan', method: 'POST', path: ENDPOINTS.aPlusPlans, body, itemIndex, timeoutMs },
		planSchema,
	);
	if (splitModules) {
		return planModuleItems(plan, modules).map((json) => ({ json }));
	}
	return [{ json: { ...plan, ...(requestId ? { request_id: requestId } : {}) } as IDataObject }];
}
