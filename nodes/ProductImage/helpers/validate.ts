import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { z } from 'zod';

/**
 * Checks one parameter value at the edge, before any request: a wrong value is an error that
 * names the parameter the user has to fix.
 */
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
	throw new NodeOperationError(context.getNode(), `Parameter "${parameter}": ${reason}`, {
		itemIndex,
		description: `Fix "${parameter}" in the node's parameters; no request was sent.`,
	});
}

export function parameterError(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	reason: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Parameter "${parameter}": ${reason}`, {
		itemIndex,
		description: description ?? `Fix "${parameter}" in the node's parameters; no request was sent.`,
	});
}
