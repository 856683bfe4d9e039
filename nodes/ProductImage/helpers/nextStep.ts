import type { IDataObject } from 'n8n-workflow';

/**
 * The `outcome` of an item that did not end well: a Continue On Fail item, or a wait's task state
 * (On Timeout → Output Task State). It tells a Data Table or an IF node what to do next; only the
 * service's own word makes it `final`. docs/reliability.md lists which failure gives which.
 */
export const NEXT_STEP = {
	/** The service's own word ended it: running the item unchanged gives the same. */
	final: 'final',
	/** A step this run could not complete: the task may be fine. */
	lookAgainLater: 'lookAgainLater',
	/** A submit whose answer never came: a task may have been created, and billed. */
	unknown: 'unknown',
} as const;

export type NextStep = (typeof NEXT_STEP)[keyof typeof NEXT_STEP];

const NEXT_STEPS = new Set<unknown>(Object.values(NEXT_STEP));

/** Answered 404 or 410 by the service itself, not a proxy's page. */
export function goneAtTheService(error: { httpCode?: unknown }, context: IDataObject): boolean {
	return (error.httpCode === '404' || error.httpCode === '410') && context.webPage !== true;
}

/** The step the code that raised the error stated, else what the transport's facts say. */
export function nextStepOf(error: unknown): NextStep {
	const record = (error ?? {}) as { httpCode?: unknown; context?: IDataObject };
	const context = record.context ?? {};
	if (NEXT_STEPS.has(context.outcome)) return context.outcome as NextStep;
	if (context.mayHaveCreatedTask === true) return NEXT_STEP.unknown;
	if (context.serviceReply !== undefined || goneAtTheService(record, context))
		return NEXT_STEP.final;
	// A task that was not reported failed may be fine, whatever kept this run from seeing it; a
	// request turned away for now, or stopped before it was sent, may be sent again.
	if (context.taskId !== undefined || context.transient === true || context.stopped === true)
		return NEXT_STEP.lookAgainLater;
	return NEXT_STEP.final;
}
