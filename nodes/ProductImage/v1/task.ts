import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { forOperation, optionsCollection, STORED } from '../descriptions/common.descriptions';
import type { ImageOutputSettings } from '../helpers/output';
import { hintFitting } from '../helpers/output';
import { queryTask, readTaskId } from '../helpers/task';
import { readOptions } from '../helpers/parameters';
import type { WaitSettings } from '../helpers/waitForTask';
import { collectTask, isPollingMode, readWaitSettings } from '../helpers/waitForTask';
import type { OperationModule } from '../router';
import { waitOptions } from './descriptions';

/** Workflows saved before the Polling option asked for the fixed rhythm by adding a Poll Interval alone. */
export function readWaitSettingsAsSaved(
	context: IExecuteFunctions,
	itemIndex: number,
): WaitSettings & ImageOutputSettings {
	const settings = readWaitSettings(context, itemIndex, waitOptions);
	const { polling, pollInterval } = readOptions(context, itemIndex);
	if (!isPollingMode(polling) && pollInterval !== undefined) settings.polling = 'fixed';
	return settings;
}

const taskIdProperty: INodeProperties = {
	displayName: 'Task ID',
	...STORED.taskId,
	description:
		"The task ID that 'Submit Generation (No Wait)' outputs, or that 'Generate and Wait' names when it stops before the task finishes",
};

const get: OperationModule<string> = {
	description: forOperation('task', 'get', [taskIdProperty]),
	readParameters(itemIndex) {
		return readTaskId(this, itemIndex, taskIdProperty.displayName);
	},
	async execute(itemIndex, taskId) {
		const { task } = await queryTask(this, itemIndex, taskId);
		return [{ json: task as IDataObject }];
	},
};

const wait: OperationModule<{ taskId: string; settings: WaitSettings & ImageOutputSettings }> = {
	description: forOperation('task', 'wait', [taskIdProperty, optionsCollection(waitOptions)]),
	readParameters(itemIndex) {
		return {
			taskId: readTaskId(this, itemIndex, taskIdProperty.displayName),
			settings: readWaitSettingsAsSaved(this, itemIndex),
		};
	},
	async execute(itemIndex, { taskId, settings }) {
		return await collectTask(this, itemIndex, taskId, settings);
	},
	runsConcurrently: true,
	afterRun(output) {
		hintFitting(this, output);
	},
};

export const operations = { get, wait };
