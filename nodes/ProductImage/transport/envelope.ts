import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import type { z } from 'zod';

import type { JsonReply } from './classify';
import { shapeAdvice } from './guidance';
import type { RequestPurpose } from './purposes';

const ENVELOPE_KEYS = new Set(['code', 'request_id', 'requestId', 'message', 'msg', 'success']);

/**
 * The spec wraps results in `{code, data, request_id}` but leaves open whether analysis and
 * planning results sit inside `data`: take `data` when it is an object, otherwise the top level
 * without the envelope's own fields.
 */
export function unwrapEnvelope(body: unknown): Record<string, unknown> {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
	const record = body as Record<string, unknown>;
	const data = record.data;
	if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
		return data as Record<string, unknown>;
	}
	return Object.fromEntries(
		Object.entries(record).filter(([key]) => !ENVELOPE_KEYS.has(key) && key !== 'data'),
	);
}

function describeIssue(issue: z.ZodIssue): string {
	const path = issue.path.length ? issue.path.join('.') : '(the result)';
	return `${path}: ${issue.message}`;
}

/** Validates the unwrapped result; an unexpected shape names the field that was missing or wrong. */
export function parseResult<S extends z.ZodTypeAny>(
	context: IExecuteFunctions,
	schema: S,
	reply: JsonReply,
	purpose: RequestPurpose,
	itemIndex: number,
): z.infer<S> {
	const parsed = schema.safeParse(unwrapEnvelope(reply.body));
	if (parsed.success) return parsed.data;
	const issues = parsed.error.issues.slice(0, 5).map(describeIssue).join('; ');
	const requestId = reply.requestId ? ` [request ${reply.requestId}]` : '';
	const error = new NodeApiError(
		context.getNode(),
		{ request_id: reply.requestId ?? null, issues },
		{
			message: `The service's ${purpose} reply did not have the expected shape: ${issues}${requestId}`,
			description: shapeAdvice(purpose, reply.requestId),
			itemIndex,
		},
	);
	error.context.requestId = reply.requestId;
	throw error;
}
