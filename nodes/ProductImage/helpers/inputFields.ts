import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

/** The fields of an 'Analysis → Analyze' item: what A+ Plan → Create plans from. */
export const ANALYSIS_FIELDS: readonly string[] = [
	'analysis',
	'formattedText',
	'output_text',
	'request_id',
	'facts_to_confirm',
	'facts_to_confirm_count',
	'review_text',
];

/** Where an input field named like one of the node's own is kept: one field, added beside them. */
export const INPUT_FIELDS_ASIDE = 'input_fields';

function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A field named like one of the node's own keeps its value under 'input_fields', so a store's
 * `status` or `images` is neither lost nor taken for a result. `consumed` is left out.
 */
export function inputFieldsBeside(
	input: IDataObject,
	own: IDataObject,
	{ ownNames = [], consumed = [] }: { ownNames?: readonly string[]; consumed?: readonly string[] },
): IDataObject {
	const named = new Set([...Object.keys(own), ...ownNames]);
	const riding: IDataObject = {};
	const aside: IDataObject = {};
	for (const [name, value] of Object.entries(input)) {
		if (consumed.includes(name)) continue;
		if (!named.has(name)) riding[name] = value;
		else if (JSON.stringify(own[name]) !== JSON.stringify(value)) aside[name] = value;
	}
	if (Object.keys(aside).length === 0) return riding;
	const earlier = riding[INPUT_FIELDS_ASIDE];
	return { ...riding, [INPUT_FIELDS_ASIDE]: { ...(isObject(earlier) ? earlier : {}), ...aside } };
}

export function hintInputFieldsAside(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
): void {
	const names = new Set(
		items.flatMap(({ json }) =>
			isObject(json[INPUT_FIELDS_ASIDE]) ? Object.keys(json[INPUT_FIELDS_ASIDE]) : [],
		),
	);
	if (names.size === 0) return;
	const listed = [...names].map((name) => `'${name}'`).join(', ');
	const fields = names.size === 1 ? `input field ${listed} is` : `input fields ${listed} are`;
	context.addExecutionHints?.({
		message: `The ${fields} named like this node's own, which keep their names: the input's values are under '${INPUT_FIELDS_ASIDE}', such as {{ $json.${INPUT_FIELDS_ASIDE}.${[...names][0]} }}`,
		location: 'outputPane',
	});
}
