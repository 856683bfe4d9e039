import type { IDataObject } from 'n8n-workflow';

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
