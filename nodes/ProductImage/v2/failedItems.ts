import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { KEEP_GOING } from '../descriptions/common.descriptions';
import type { OperationModule } from '../router';
import { withInputFields } from './output';

/** A failed item is its product as a succeeded one is; n8n's green check counts items, so the failed are named. */
export const failedItems = {
	after(
		this: IExecuteFunctions,
		output: INodeExecutionData[][],
		failed: number[],
		operation: OperationModule,
	) {
		const keeps = JSON.stringify(operation.description).includes('"includeOtherFields"');
		for (const index of keeps ? failed : []) {
			try {
				output[index][0].json = withInputFields(this, index, output[index][0].json);
			} catch {
				// Options it cannot read are its error already.
			}
		}
		failed.sort((a, b) => a - b);
		const named = failed.slice(0, 10).map((index) => `item ${index}`);
		this.addExecutionHints?.({
			message: `${failed.length} of ${output.length} items failed: ${named.join(', ')}${failed.length > 10 ? ', …' : ''}. Each failed item holds 'error' and 'outcome'; the other items are complete.`,
			type: 'warning',
			location: 'outputPane',
		});
	},
	stopAdvice: (accepted: number) =>
		accepted
			? `${KEEP_GOING} An error workflow (Error Trigger) gets these tasks as data in 'execution.error.context.acceptedTasks', for 'Task → Wait for Completion' to collect.`
			: KEEP_GOING,
};
