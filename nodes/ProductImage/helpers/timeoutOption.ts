import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import { SYNC_TIMEOUT_SECONDS } from '../transport';
import { validateParameter } from './validate';

export function readTimeoutMs(context: IExecuteFunctions, itemIndex: number): number {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const seconds = validateParameter(
		context,
		itemIndex,
		'Timeout',
		z.coerce.number().positive('must be a number of seconds greater than 0'),
		options.timeout ?? SYNC_TIMEOUT_SECONDS,
	);
	return Math.round(seconds * 1000);
}
