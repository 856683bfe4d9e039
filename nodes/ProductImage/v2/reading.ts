import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { Details } from '../descriptions/common.descriptions';
import {
	BUNDLE_GROUP,
	INPUT_BINARY_FIELDS,
	OTHER,
	OTHER_CHOICE,
	otherFieldName,
} from '../descriptions/common.descriptions';
import type { ShownImageFields } from '../helpers/imageInputs';
import { BOTH_IMAGE_FIELDS, IMAGE_URLS } from '../helpers/imageInputs';
import { labelOf, parameterError, parameterOrDefault, propertyIn } from '../helpers/parameters';
import {
	IMAGE_SOURCE,
	imageSourceProperty,
	waitOptions,
} from './descriptions/options.descriptions';
import type { OutputShape } from './descriptions/output.descriptions';
import { OUTPUT, outputProperties } from './descriptions/output.descriptions';

/** Beside `name` in a details collection: its bundle's (`{ value: { platform, customPlatform } }`), or the collection's own. */
function fieldsBeside(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	details: Details,
): IDataObject {
	const collection = context.getNodeParameter(details, itemIndex, {}) as IDataObject;
	const group = (collection[name] as IDataObject | null | undefined)?.[BUNDLE_GROUP];
	return typeof group === 'object' && group !== null ? (group as IDataObject) : collection;
}

/** A field in its details collection (or its bundle there), or top-level without `details`. */
export function readField(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	fallback?: unknown,
	details?: Details,
): unknown {
	if (details === undefined) return context.getNodeParameter(name, itemIndex, fallback);
	return fieldsBeside(context, name, itemIndex, details)[name] ?? fallback;
}

/** Where a list is read: the version's parameters (for its labels) and its details collection. */
export interface ChoiceIn {
	properties: INodeProperties[];
	fallback?: string;
	details?: Details;
}

/** With `fallback`, a field hidden for this item reads as it. An empty Other field is refused. */
export function readChoice(
	context: IExecuteFunctions,
	name: string,
	itemIndex: number,
	{ properties, fallback, details }: ChoiceIn,
): unknown {
	const value = readField(context, name, itemIndex, fallback, details);
	if (value !== OTHER) return value;
	const other = otherFieldName(name);
	const typed =
		details === undefined
			? context.getNodeParameter(other, itemIndex, '')
			: fieldsBeside(context, name, itemIndex, details)[other];
	if (typed !== undefined && typed !== null && String(typed).trim() !== '') return typed;
	const field = labelOf(properties, other);
	const list = labelOf(properties, name);
	throw parameterError(
		context,
		itemIndex,
		field,
		`is empty while '${list}' is '${OTHER_CHOICE.name}'`,
		`Type the value in '${field}', or choose an entry of '${list}'. No request was sent.`,
	);
}

export function shownImageFields(context: IExecuteFunctions, itemIndex: number): ShownImageFields {
	const source = parameterOrDefault(context, itemIndex, imageSourceProperty);
	const sourceLabel = imageSourceProperty.displayName;
	if (source === IMAGE_SOURCE.urls) {
		const files = imageSourceProperty.options?.find(
			(option) => 'value' in option && option.value === IMAGE_SOURCE.binary,
		)?.name;
		return {
			labels: [IMAGE_URLS],
			tooFewAdvice: `Enter at least one image URL, or set '${sourceLabel}' to '${files}'.`,
		};
	}
	if (source === IMAGE_SOURCE.binary)
		return {
			labels: [INPUT_BINARY_FIELDS],
			tooFewAdvice: `Name the binary fields of the input item that hold the product photos, or set '${sourceLabel}' to 'URLs'.`,
		};
	return BOTH_IMAGE_FIELDS;
}

/** Where this version's wait settings' labels and defaults are read; only Status Checks chooses the rhythm. */
export const WAIT_OPTIONS = waitOptions(false);

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
