import type { IDataObject } from 'n8n-workflow';

/**
 * The `outcome` of an item that did not end well: a Continue On Fail item, or a wait's task state
 * (On Timeout → Output Task State). It tells a Data Table or an IF node what to do next; only the
 * service's own word makes it `final`. docs/reliability.md lists which failure gives which.
 */
export const OUTCOME = {
	/**
	 * The service's own word ended it: a task it reports failed, a task or image it says it does
	 * not have (404, 410), a request it refused, a reply from it this node cannot use. Looking
	 * again, or running the item unchanged, gives the same.
	 */
	final: 'final',
	/**
	 * A step this run could not complete (a status check, a download of a finished task's images, a
	 * wait that ran out of time, a request turned away for now): the task may be fine. Look again
	 * later, with 'Task → Wait for Completion' where there is a task ID.
	 */
	lookAgainLater: 'lookAgainLater',
	/**
	 * A submit whose answer never came: the service may have created, and billed, a task whose ID
	 * this run never got. Do not submit again; ask the provider with the request ID.
	 */
	unknown: 'unknown',
} as const;

export type Outcome = (typeof OUTCOME)[keyof typeof OUTCOME];

const OUTCOMES = new Set<unknown>(Object.values(OUTCOME));

/** A task query or download the service answered 404 or 410 itself (not a proxy's page). */
function goneAtTheService(error: { httpCode?: unknown }, context: IDataObject): boolean {
	return (error.httpCode === '404' || error.httpCode === '410') && context.webPage !== true;
}

/**
 * What an error means for its item: the outcome the code that raised it stated, else what the
 * transport's facts on it say.
 */
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
