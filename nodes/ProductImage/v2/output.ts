import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import {
	optionOrDefault,
	parameterOrDefault,
	propertyIn,
	readOptions,
} from '../helpers/parameters';
import { isRecord } from '../transport';
import { includeOtherFieldsOption } from './descriptions/options.descriptions';
import type { OutputShape } from './descriptions/output.descriptions';
import { OUTPUT, outputProperties } from './descriptions/output.descriptions';

function pick(json: IDataObject, fields: readonly string[]): IDataObject {
	return Object.fromEntries(
		fields.filter((field) => json[field] !== undefined).map((field) => [field, json[field]]),
	);
}

/** `derived` adds flattened fields (a task's image URLs) to choose from; binary data always stays. */
export function shapeOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	items: INodeExecutionData[],
	shape: OutputShape,
	derived: (json: IDataObject) => IDataObject = () => ({}),
): INodeExecutionData[] {
	const output = parameterOrDefault(
		context,
		itemIndex,
		propertyIn(outputProperties(shape, ''), 'output'),
	);
	if (output !== OUTPUT.simplified && output !== OUTPUT.selected) return items;
	const chosen = context.getNodeParameter('outputFields', itemIndex, []) as string[];
	const fields = (json: IDataObject) => {
		if (output === OUTPUT.selected) return [shape.key, ...chosen.filter((f) => f !== shape.key)];
		return json.timed_out === true && shape.timedOut ? shape.timedOut : shape.simplified;
	};
	return items.map((item) => ({
		...item,
		json: pick({ ...item.json, ...derived(item.json) }, fields(item.json)),
	}));
}

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
