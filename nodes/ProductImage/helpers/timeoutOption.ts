import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { SYNC_TIMEOUT_SECONDS } from '../transport';
import { validateParameter } from './validate';

/** A timeout option of the `options` collection, in ms: by default the Timeout of analysis and planning. */
export function readTimeoutMs(
	context: IExecuteFunctions,
	itemIndex: number,
	option: { name: string; label: string; defaultSeconds: number } = {
		name: 'timeout',
		label: 'Timeout',
		defaultSeconds: SYNC_TIMEOUT_SECONDS,
	},
): number {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const seconds = validateParameter(
		context,
		itemIndex,
		option.label,
		z.coerce.number().positive('must be a number of seconds greater than 0'),
		options[option.name] ?? option.defaultSeconds,
	);
	return Math.round(seconds * 1000);
}
