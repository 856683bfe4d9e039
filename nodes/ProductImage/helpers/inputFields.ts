import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { includeOtherFieldsOption } from '../descriptions/common.descriptions';
import { isVersion1 } from '../descriptions/versions';
import { optionOrDefault, readOptions } from './parameters';

/** The fields of an 'Analysis → Analyze' item: what A+ Plan → Create plans from. */
export const ANALYSIS_FIELDS: readonly string[] = [
	'analysis',
	'formattedText',
	'output_text',
	'request_id',
];

/**
 * The input item's fields that ride along with the node's own: none named like one of them or
 * like one of `leaveOut` (fields the node may output, or input it consumed), so an input field is
 * never taken for a result. Set's "Include Other Input Fields" works the same way.
 */
export function otherInputFields(
	input: IDataObject,
	own: IDataObject,
	leaveOut: readonly string[] = [],
): IDataObject {
	const taken = new Set([...Object.keys(own), ...leaveOut]);
	return Object.fromEntries(Object.entries(input).filter(([name]) => !taken.has(name)));
}

/**
 * The current version hands the input item's own fields on (Include Other Input Fields, on unless
 * switched off), so a store's product ID and title travel through Analyze and A+ Plan to every
 * generated image. The node's own fields come first, where the next node's input panel shows them
 * at the top.
 */
export function withInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
	leaveOut: readonly string[] = [],
): IDataObject {
	if (isVersion1(context)) return json;
	if (optionOrDefault(readOptions(context, itemIndex), includeOtherFieldsOption) !== true)
		return json;
	const input = context.getInputData()[itemIndex]?.json ?? {};
	return { ...json, ...otherInputFields(input, json, leaveOut) };
}
