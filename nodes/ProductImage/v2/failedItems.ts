import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { KEEP_GOING } from '../descriptions/common.descriptions';
import type { NodeVersion, OperationModule } from '../router';
import { includeOtherFieldsOption } from './descriptions/options.descriptions';
import { withInputFields } from './output';

/** A failed item is its product, as a succeeded one is with Include Other Input Fields. */
function keepInputFields(context: IExecuteFunctions, item: INodeExecutionData, index: number) {
	try {
		item.json = withInputFields(context, index, item.json);
	} catch {
		// Options that cannot be read are this item's error already.
	}
}

/** n8n's green check counts items, not outcomes: the failed ones are named above the output. */
export const failedItems: NonNullable<NodeVersion['failedItems']> = {
	after(output: INodeExecutionData[][], failed: number[], operation: OperationModule) {
		// Only where a succeeded item of the operation carries them (the option is in its Options).
		if (JSON.stringify(operation.description).includes(`"${includeOtherFieldsOption.name}"`))
			for (const index of failed) keepInputFields(this, output[index][0], index);
		failed.sort((a, b) => a - b);
		const named = failed.slice(0, 10).map((index) => `item ${index}`);
		this.addExecutionHints?.({
			message: `${failed.length} of ${output.length} items failed: ${named.join(', ')}${failed.length > 10 ? ', …' : ''}. Each failed item holds 'error' and 'outcome'; the other items are complete.`,
			type: 'warning',
			location: 'outputPane',
		});
	},
	stopAdvice: (accepted) =>
		accepted
			? `${KEEP_GOING} An error workflow (Error Trigger) gets these tasks as data in 'execution.error.context.acceptedTasks', for 'Task → Wait for Completion' to collect.`
			: KEEP_GOING,
};
