import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { parameterOrDefault, propertyIn } from '../helpers/parameters';
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
