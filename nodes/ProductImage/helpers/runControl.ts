import type { IExecuteFunctions } from 'n8n-workflow';

import { runStop } from '../transport';

/** A generation the service accepted during this node run: it is billed whatever happens next. */
export interface AcceptedTask {
	itemIndex: number;
	taskId: string;
}

/**
 * What the items of one node run share: the tasks the service accepted, and the run's stop, raised
 * when one item fails without Continue On Fail. The node's output is lost then, so the transport
 * sends nothing more for the other lanes (no submit, no retry), their waits end, and the error
 * lists the accepted tasks.
 */
export interface RunControl {
	accepted: AcceptedTask[];
	stop: AbortController;
}

const runs = new WeakMap<IExecuteFunctions, RunControl>();

export function runControl(context: IExecuteFunctions): RunControl {
	let control = runs.get(context);
	if (!control) {
		control = { accepted: [], stop: runStop(context) };
		runs.set(context, control);
	}
	return control;
}
