import type { IDataObject } from 'n8n-workflow';

/**
 * The `outcome` of an item that did not end well: a Continue On Fail item, or a wait's task state
 * (On Timeout → Output Task State). It tells a Data Table or an IF node what to do next; only the
 * service's own word makes it `final`. docs/reliability.md lists which failure gives which.
 */
export const OUTCOME = {
	/** The service's own word ended it: running the item unchanged gives the same. */
	final: 'final',
	/** A step this run could not complete: the task may be fine. */
	lookAgainLater: 'lookAgainLater',
	/** A submit whose answer never came: a task may have been created, and billed. */
	unknown: 'unknown',
} as const;

export type Outcome = (typeof OUTCOME)[keyof typeof OUTCOME];

const OUTCOMES = new Set<unknown>(Object.values(OUTCOME));

/** Answered 404 or 410 by the service itself, not a proxy's page. */
export function goneAtTheService(error: { httpCode?: unknown }, context: IDataObject): boolean {
	return (error.httpCode === '404' || error.httpCode === '410') && context.webPage !== true;
}

/** The outcome the code that raised the error stated, else what the transport's facts say. */
export function outcomeOf(error: unknown): Outcome {
	const record = (error ?? {}) as { httpCode?: unknown; context?: IDataObject };
	const context = record.context ?? {};
	if (OUTCOMES.has(context.outcome)) return context.outcome as Outcome;
	if (context.mayHaveCreatedTask === true) return OUTCOME.unknown;
	if (context.serviceReply !== undefined || goneAtTheService(record, context)) return OUTCOME.final;
	// A task that was not reported failed may be fine, whatever kept this run from seeing it; a
	// request turned away for now, or stopped before it was sent, may be sent again.
	if (context.taskId !== undefined || context.transient === true || context.stopped === true)
		return OUTCOME.lookAgainLater;
	return OUTCOME.final;
}
