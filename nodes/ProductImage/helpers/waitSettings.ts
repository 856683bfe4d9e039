import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { z } from 'zod';

import type { PollingMode } from './pollSchedule';
import type { ImageOutputSettings } from './output';
import {
	binaryPropertyOption,
	initialDelayOption,
	maxWaitTimeOption,
	pollingOption,
	pollIntervalOption,
} from '../actions/common.descriptions';
import { optionOrDefault, readOptions, validateParameter } from './parameters';
import type { WaitSettings } from './waitForTask';

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
	return options.pollInterval !== undefined ? 'fixed' : (pollingOption.default as PollingMode);
}

/** The waiting and output options shared by Generate and Wait and Task → Wait for Task. */
export function readWaitSettings(
	context: IExecuteFunctions,
	itemIndex: number,
): WaitSettings & ImageOutputSettings {
	const options = readOptions(context, itemIndex);
	return {
		initialDelay: validateParameter(
			context,
			itemIndex,
			'Initial Delay',
			seconds(0, true),
			optionOrDefault(options, initialDelayOption),
		),
		initialDelayGiven: options.initialDelay !== undefined,
		pollInterval: validateParameter(
			context,
			itemIndex,
			'Poll Interval',
			seconds(0.1, true),
			optionOrDefault(options, pollIntervalOption),
		),
		maxWaitTime: validateParameter(
			context,
			itemIndex,
			'Max Wait Time',
			seconds(0, false),
			optionOrDefault(options, maxWaitTimeOption),
		),
		downloadImages: options.downloadImages !== false,
		binaryPropertyName: validateParameter(
			context,
			itemIndex,
			'Put Output File in Field',
			z.string().trim().min(1, 'must name a binary field, such as data'),
			optionOrDefault(options, binaryPropertyOption),
		),
		imagesOutput: options.imagesOutput === 'together' ? 'together' : 'perImage',
		onTimeout: options.onTimeout === 'outputTaskState' ? 'outputTaskState' : 'error',
		polling: pollingMode(options),
	};
}
