import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { hintInputFieldsAside, inputFieldsBeside } from '../helpers/inputFields';
import { optionOrDefault, readOptions } from '../helpers/parameters';
import { includeOtherFieldsOption } from './descriptions/options.descriptions';

/**
 * This version hands the input item's own fields on (Include Other Input Fields, on unless
 * switched off), so a store's product ID and title travel through Analyze and A+ Plan to every
 * generated image. The node's own fields come first, where the next node's input panel shows them
 * at the top. An input field named like one of the node's stays under 'input_fields'.
 */
export function withInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
	names: { ownNames?: readonly string[]; consumed?: readonly string[] } = {},
): IDataObject {
	if (optionOrDefault(readOptions(context, itemIndex), includeOtherFieldsOption) !== true)
		return json;
	const input = context.getInputData()[itemIndex]?.json ?? {};
	return { ...json, ...inputFieldsBeside(input, json, names) };
}

/** An operation's afterRun: one hint names the input fields kept under 'input_fields'. */
export function hintInputFieldsAfterRun(this: IExecuteFunctions, output: INodeExecutionData[]) {
	hintInputFieldsAside(this, output);
}
