import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { z } from 'zod';

import { ENDPOINTS, requestResult } from '../transport/request';
import type { Wording } from '../transport/guidance';
import { A_PLUS_MODULE_IDS } from './aPlus';
import type { ShownImageFields } from './imageInputs';
import { IMAGE_URLS, readImageInputs, resolveImageUrls, splitCommaSeparated } from './imageInputs';
import {
	labelOf,
	optionOrDefault,
	panelProperty,
	parameterOrDefault,
	readOptions,
	readTimeoutMs,
	validateParameter,
} from './parameters';

/** As the version's panel holds them for one item: Other typed in, Platform's default applied. */
export interface PlanValues {
	platform: unknown;
	market: unknown;
	language: unknown;
	productDescription: string;
	imageFields: ShownImageFields;
}

const planSchema = z
	.object({
		modules: z.array(z.object({ recommended_prompt: z.string() }).passthrough()),
		global_style: z.unknown().optional(),
		notes: z.unknown().optional(),
	})
	.passthrough();

export type Plan = z.infer<typeof planSchema>;

export type PlanRequest = ReturnType<typeof buildPlanRequest>;

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
	z
		.string()
		.trim()
		.refine((value) => value === '' || pattern.test(value), message);

/** Modules typed or given by an expression as `hero, core`. */
const asList = (value: unknown) => (typeof value === 'string' ? splitCommaSeparated(value) : value);

/** The spec shows `zh-CN`: the language in lowercase, a two-letter region in uppercase. */
function languageTag(value: string): string {
	return value
		.split('-')
		.map((part, index) =>
			index === 0 ? part.toLowerCase() : part.length === 2 ? part.toUpperCase() : part,
		)
		.join('-');
}

function checkPlanTarget(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	values: PlanValues,
): IDataObject {
	const market = validateParameter(
		context,
		itemIndex,
		labelOf(properties, 'market'),
		optionalCode(/^[A-Za-z]{2}$/, 'must be a two-letter market code, such as US'),
		values.market,
	);
	const language = validateParameter(
		context,
		itemIndex,
		labelOf(properties, 'language'),
		optionalCode(
			/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/,
			'must be a language code such as en-US or zh-CN',
		),
		values.language,
	);
	const platform = String(values.platform);
	const fields: IDataObject = {};
	if (platform.trim()) fields.platform = platform.trim();
	if (market) fields.market = market.toUpperCase();
	if (language) fields.language = languageTag(language);
	return fields;
}

/** The labels a refused plan's advice names: the panel field behind each field of the request. */
function planWording(properties: INodeProperties[]): Wording {
	const label = (name: string) => labelOf(properties, name);
	return {
		timeout: label('timeout'),
		fields: {
			product_description: label('productDescription'),
			image_urls: IMAGE_URLS,
			modules: label('modules'),
			platform: label('platform'),
			market: label('market'),
			language: label('language'),
		},
	};
}

/** The version's values checked, with Modules and the Options both versions keep alike. */
export function buildPlanRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	values: PlanValues,
) {
	const modulesShown = panelProperty(properties, 'modules');
	const modules = validateParameter(
		context,
		itemIndex,
		modulesShown.displayName,
		modulesSchema,
		asList(parameterOrDefault(context, itemIndex, modulesShown)),
	);
	const target = checkPlanTarget(context, itemIndex, properties, values);
	const timeoutMs = readTimeoutMs(context, itemIndex, panelProperty(properties, 'timeout'));
	const options = readOptions(context, itemIndex);
	const images = readImageInputs(context, itemIndex, values.imageFields, { min: 1 });
	const fields: IDataObject = { modules };
	if (values.productDescription) fields.product_description = values.productDescription;
	Object.assign(fields, target);
	const splitModules = optionOrDefault(options, panelProperty(properties, 'splitModules')) === true;
	return { fields, modules, images, timeoutMs, splitModules, wording: planWording(properties) };
}

export async function requestPlan(
	context: IExecuteFunctions,
	itemIndex: number,
	{ fields, images, timeoutMs, wording }: PlanRequest,
): Promise<{ plan: Plan; imageUrls: string[] }> {
	const imageUrls = await resolveImageUrls(context, itemIndex, images);
	const { result: plan, requestId } = await requestResult(
		context,
		{
			kind: 'plan',
			method: 'POST',
			path: ENDPOINTS.aPlusPlans,
			body: { image_urls: imageUrls, ...fields },
			itemIndex,
			timeoutMs,
			wording,
		},
		planSchema,
	);
	return { plan: requestId ? { ...plan, request_id: requestId } : plan, imageUrls };
}
