import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { isRecord } from '../transport/errors';
import { optionOrDefault, readOptions } from './parameters';

/** Where an input field named like one of the node's own is kept: one field, added beside them. */
export const INPUT_FIELDS_ASIDE = 'input_fields';

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
	return {
		...riding,
		[INPUT_FIELDS_ASIDE]: { ...(isRecord(earlier) ? (earlier as IDataObject) : {}), ...aside },
	};
}

/** An operation's afterRun: one hint names the input fields kept under 'input_fields'. */
export function hintInputFieldsAside(this: IExecuteFunctions, items: INodeExecutionData[]): void {
	const names = new Set(
		items.flatMap(({ json }) =>
			isRecord(json[INPUT_FIELDS_ASIDE]) ? Object.keys(json[INPUT_FIELDS_ASIDE]) : [],
		),
	);
	if (names.size === 0) return;
	const listed = [...names].map((name) => `'${name}'`).join(', ');
	const fields = names.size === 1 ? `input field ${listed} is` : `input fields ${listed} are`;
	this.addExecutionHints?.({
		message: `The ${fields} named like this node's own, which keep their names: the input's values are under '${INPUT_FIELDS_ASIDE}', such as {{ $json.${INPUT_FIELDS_ASIDE}.${[...names][0]} }}`,
		location: 'outputPane',
	});
}

/** With `option` on, a store's product ID and title reach every item, after the node's own fields. */
export function withInputFields(
	context: IExecuteFunctions,
	itemIndex: number,
	json: IDataObject,
	option: INodeProperties,
	names: { ownNames?: readonly string[]; consumed?: readonly string[] } = {},
): IDataObject {
	if (optionOrDefault(readOptions(context, itemIndex), option) !== true) return json;
	const input = context.getInputData()[itemIndex]?.json ?? {};
	return { ...json, ...inputFieldsBeside(input, json, names) };
}
