import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyCollection,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { z } from 'zod';

import { BUNDLE_GROUP, OPTION_BUNDLES } from '../descriptions/common.descriptions';
import { isRecord } from '../transport/errors';
import { withoutAngleBrackets } from '../transport/guidance';

/** Version 2's bundled options (Output Files, Waiting) read as options of their own, as stored. */
export function readOptions(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const flat: IDataObject = { ...options };
	for (const name of Object.values(OPTION_BUNDLES)) {
		const group = (options[name] as IDataObject | undefined)?.[BUNDLE_GROUP];
		delete flat[name];
		if (typeof group === 'object' && group !== null) Object.assign(flat, group);
	}
	return flat;
}

/** The description is the one place a default is written (n8n's registry scanner wants it there). */
export function optionOrDefault(options: IDataObject, option: INodeProperties): unknown {
	return options[option.name] ?? option.default;
}

export function parameterOrDefault(
	context: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
): unknown {
	return context.getNodeParameter(property.name, itemIndex, property.default);
}

/** A description's parameters with those inside its collections and bundles beside them. */
function allParameters(properties: INodeProperties[]): INodeProperties[] {
	return properties.flatMap((property) => [property, ...allParameters(innerParameters(property))]);
}

function innerParameters(property: INodeProperties): INodeProperties[] {
	if (property.type === 'collection') return (property.options ?? []) as INodeProperties[];
	if (property.type !== 'fixedCollection') return [];
	return ((property.options ?? []) as INodePropertyCollection[]).flatMap((group) => group.values);
}

/** Where a label or a default is read from, so that error texts say what the panel says. */
export function propertyIn(properties: INodeProperties[], name: string): INodeProperties {
	// A list's bundle bears the list's name: the list itself is the parameter.
	const named = allParameters(properties).filter((property) => property.name === name);
	const shown = named.find((property) => property.type !== 'fixedCollection') ?? named[0];
	if (!shown) throw new Error(`No parameter "${name}" in this description`);
	return shown;
}

const found = new WeakMap<INodeProperties[], Map<string, INodeProperties>>();

/** propertyIn, remembered per (fixed) description list: items do not walk it again. */
export function panelProperty(properties: INodeProperties[], name: string): INodeProperties {
	let known = found.get(properties);
	if (!known) found.set(properties, (known = new Map()));
	let property = known.get(name);
	if (!property) known.set(name, (property = propertyIn(properties, name)));
	return property;
}

export function labelOf(properties: INodeProperties[], name: string): string {
	return panelProperty(properties, name).displayName;
}

/** As n8n's guidelines name it in an error; several names arrive already quoted. */
function quotedName(parameter: string): string {
	return parameter.includes("'") ? parameter : `'${parameter}'`;
}

/** The title names the parameter and what is wrong, the description what to change. */
export function parameterError(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	reason: string,
	description?: string,
): NodeOperationError {
	const name = quotedName(parameter);
	return new NodeOperationError(context.getNode(), `${name}: ${reason}`, {
		itemIndex,
		description: description ?? changeAdvice(name),
	});
}

function changeAdvice(quoted: string): string {
	return `Change ${quoted} in the node's parameters. No request was sent.`;
}

/** At the edge, before any request: the error names the parameter the user has to fix. */
export function validateParameter<S extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	schema: S,
	value: unknown,
): z.infer<S> {
	const parsed = schema.safeParse(value);
	if (parsed.success) return parsed.data;
	const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
	const name = quotedName(parameter);
	// An expression's result is not in the panel: the user sees what the node was given only here.
	const given = shownValue(value);
	throw parameterError(
		context,
		itemIndex,
		parameter,
		reason,
		`${given ? `${name} is ${given} for this item. ` : ''}${changeAdvice(name)}`,
	);
}

/** The editor renders a description as HTML, where a value in angle brackets would vanish. */
function shownValue(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const text = withoutAngleBrackets(typeof value === 'string' ? value : JSON.stringify(value));
	const cut = text.length > 80 ? `${text.slice(0, 80)}…` : text;
	return typeof value === 'string' ? `"${cut}"` : cut;
}

export function readTimeoutMs(
	context: IExecuteFunctions,
	itemIndex: number,
	option: INodeProperties,
): number {
	const seconds = validateParameter(
		context,
		itemIndex,
		option.displayName,
		z.coerce.number().positive('must be a number of seconds greater than 0'),
		optionOrDefault(readOptions(context, itemIndex), option),
	);
	return Math.round(seconds * 1000);
}

/** Where an input field named like one of the node's own is kept: one field, added beside them. */
export const INPUT_FIELDS_ASIDE = 'input_fields';

/** A store's `status` or `images` goes under 'input_fields': not lost, nor taken for a result. */
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
