import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { otherInputFields } from '../helpers/inputFields';
import { optionOrDefault, readOptions } from '../helpers/parameters';
import { includeOtherFieldsOption } from './descriptions/options.descriptions';

/**
 * This version hands the input item's own fields on (Include Other Input Fields, on unless
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
	if (optionOrDefault(readOptions(context, itemIndex), includeOtherFieldsOption) !== true)
		return json;
	const input = context.getInputData()[itemIndex]?.json ?? {};
	return { ...json, ...otherInputFields(input, json, leaveOut) };
}
