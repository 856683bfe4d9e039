import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { hintInputFieldsAside, inputFieldsBeside } from '../helpers/inputFields';
import { optionOrDefault, readOptions } from '../helpers/parameters';
import { includeOtherFieldsOption } from './descriptions/options.descriptions';

/** A store's product ID and title thus reach every image; the node's own fields come first. */
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
