import type { INodeProperties } from 'n8n-workflow';

import * as aPlusPlan from './actions/aPlusPlan/APlusPlan.resource';
import * as analysis from './actions/analysis/Analysis.resource';
import * as image from './actions/image/Image.resource';
import * as task from './actions/task/Task.resource';
import { KEEP_GOING } from '../descriptions/common.descriptions';
import { itemsInParallelOption } from './descriptions/options.descriptions';
import type { NodeVersion } from '../router';
import { propertiesOf } from '../router';

export const version2: NodeVersion = {
	resources: {
		image: image.operations,
		task: task.operations,
		analysis: analysis.operations,
		aPlusPlan: aPlusPlan.operations,
	} as NodeVersion['resources'],
	concurrencyOption: itemsInParallelOption,
	namesFailedItems: true,
	stopAdvice: {
		noTasks: KEEP_GOING,
		acceptedTasks: `${KEEP_GOING} An error workflow (Error Trigger) gets these tasks as data in 'execution.error.context.acceptedTasks', for 'Task → Wait for Completion' to collect.`,
	},
};

export const properties: INodeProperties[] = propertiesOf(version2);
