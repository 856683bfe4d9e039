import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { includeOtherFieldsOptionV3 } from '../descriptions/common.descriptions';
import { nodeVersion } from '../descriptions/versions';
import { optionOrDefault, readOptions } from './parameters';

/**
 * Version 3 hands the input item's own fields on (Include Other Input Fields, on unless switched
 * off), so a store's product ID and title travel through Analyze and A+ Plan to every generated
 * image; the node's own fields win over input fields of the same name.
 */
export function withInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
): IDataObject {
	if (nodeVersion(context) < 3) return json;
	if (optionOrDefault(readOptions(context, itemIndex), includeOtherFieldsOptionV3) !== true)
		return json;
	return { ...(context.getInputData()[itemIndex]?.json ?? {}), ...json };
}
