import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { includeOtherFieldsOption } from '../descriptions/common.descriptions';
import { isVersion1 } from '../descriptions/versions';
import { optionOrDefault, readOptions } from './parameters';

/**
 * The current version hands the input item's own fields on (Include Other Input Fields, on unless switched
 * off), so a store's product ID and title travel through Analyze and A+ Plan to every generated
 * image; the node's own fields win over input fields of the same name.
 */
export function withInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
): IDataObject {
	if (isVersion1(context)) return json;
	if (optionOrDefault(readOptions(context, itemIndex), includeOtherFieldsOption) !== true)
		return json;
	return { ...(context.getInputData()[itemIndex]?.json ?? {}), ...json };
}
