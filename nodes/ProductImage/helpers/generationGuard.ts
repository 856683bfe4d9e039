import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { parameterError } from './validate';

const OPTION = 'Max Generations per Run';

/**
 * The spending guard: a run that would submit more generations than the limit stops before the
 * first submit. Without the option there is no limit, as before it existed.
 */
export function checkGenerationCount(context: IExecuteFunctions, generations: number): void {
	if (generations === 0) return;
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const raw = options.maxGenerations;
	if (raw === undefined || raw === null || raw === '') return;
	const limit = Number(raw);
	if (!Number.isInteger(limit) || limit < 1) {
		throw parameterError(
			context,
			0,
			OPTION,
			`must be a whole number of at least 1, got ${JSON.stringify(raw)}`,
		);
	}
	if (generations <= limit) return;
	throw new NodeOperationError(
		context.getNode(),
		`This run would submit ${generations} generations, more than ${OPTION} (${limit})`,
		{
			description:
				`${generations} items came in, and each submits one generation that the service bills; nothing was submitted. ` +
				`To allow it, raise ${OPTION} in the node's Options to ${generations} or more (or remove the option); ` +
				'to spend less, filter or limit the items before this node.',
		},
	);
}
