import type { IExecuteFunctions } from 'n8n-workflow';

/** A generation the service accepted during this node run: it is billed whatever happens next. */
export interface AcceptedTask {
	itemIndex: number;
	taskId: string;
}

/**
 * What the items of one node run share beyond the transport: the tasks the service accepted, and
 * a stop signal raised when one item fails without Continue On Fail. The node's output is lost
 * then, so the other lanes stop submitting and waiting, and the error lists the accepted tasks.
 */
export interface RunControl {
	accepted: AcceptedTask[];
	stop: AbortController;
}

const runs = new WeakMap<IExecuteFunctions, RunControl>();

export function runControl(context: IExecuteFunctions): RunControl {
	let control = runs.get(context);
	if (!control) {
		control = { accepted: [], stop: new AbortController() };
		runs.set(context, control);
	}
	return control;
}

/** The signal a wait listens to: the execution was cancelled, or another item of the run failed. */
export function waitSignal(context: IExecuteFunctions): AbortSignal {
	const cancel = context.getExecutionCancelSignal?.();
	const stop = runControl(context).stop.signal;
	return cancel ? AbortSignal.any([cancel, stop]) : stop;
}
