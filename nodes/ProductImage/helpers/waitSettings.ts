import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import type { PollingMode } from './pollSchedule';
import type { ImageOutputSettings } from './output';
import { validateParameter } from './parameters';
import type { WaitSettings } from './waitForTask';

export const WAIT_DEFAULTS = {
	initialDelay: 5,
	polling: 'adaptive' as PollingMode,
	pollInterval: 5,
	maxWaitTime: 600,
	downloadImages: true,
	binaryPropertyName: 'data',
	imagesOutput: 'perImage',
} as const;

const seconds = (minimum: number, inclusive: boolean) =>
	z.coerce
		.number({ invalid_type_error: 'must be a number of seconds' })
		.refine((value) => Number.isFinite(value) && (inclusive ? value >= minimum : value > minimum), {
			message: `must be a number of seconds ${inclusive ? 'of at least' : 'greater than'} ${minimum}`,
		});

/**
 * Workflows saved before the Polling option that set a Poll Interval asked for that rhythm: they
 * keep it. Everything else polls adaptively.
 */
function pollingMode(options: IDataObject): PollingMode {
	if (options.polling === 'fixed' || options.polling === 'adaptive') return options.polling;
	return options.pollInterval !== undefined ? 'fixed' : WAIT_DEFAULTS.polling;
}

/** The waiting and output options shared by Generate and Wait and Task → Wait for Task. */
export function readWaitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
): WaitSettings & ImageOutputSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		initialDelay: validateParameter(
			context,
			itemIndex,
			'Initial Delay',
			seconds(0, true),
			options.initialDelay ?? WAIT_DEFAULTS.initialDelay,
		),
		initialDelayGiven: options.initialDelay !== undefined,
		pollInterval: validateParameter(
			context,
			itemIndex,
			'Poll Interval',
			seconds(0.1, true),
			options.pollInterval ?? WAIT_DEFAULTS.pollInterval,
		),
		maxWaitTime: validateParameter(
			context,
			itemIndex,
			'Max Wait Time',
			seconds(0, false),
			options.maxWaitTime ?? WAIT_DEFAULTS.maxWaitTime,
		),
		downloadImages: options.downloadImages !== false,
		binaryPropertyName: validateParameter(
			context,
			itemIndex,
			'Put Output File in Field',
			z.string().trim().min(1, 'must name a binary field, such as data'),
			options.binaryPropertyName ?? WAIT_DEFAULTS.binaryPropertyName,
		),
		imagesOutput: options.imagesOutput === 'together' ? 'together' : 'perImage',
		onTimeout: options.onTimeout === 'outputTaskState' ? 'outputTaskState' : 'error',
		polling: pollingMode(options),
	};
}
