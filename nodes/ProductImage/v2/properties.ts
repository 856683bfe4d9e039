import type { INodeProperties } from 'n8n-workflow';

import * as aPlusPlan from './actions/aPlusPlan/APlusPlan.resource';
import * as analysis from './actions/analysis/Analysis.resource';
import * as image from './actions/image/Image.resource';
import * as task from './actions/task/Task.resource';
import { itemsInParallelOption } from './descriptions/options.descriptions';
import { failedItems } from './failedItems';
import type { NodeVersion } from '../router';

export const properties: INodeProperties[] = [image, task, analysis, aPlusPlan].flatMap(
	(resource) => resource.description,
);

export const version2: NodeVersion = {
	resources: {
		image: image.operations,
		task: task.operations,
		analysis: analysis.operations,
		aPlusPlan: aPlusPlan.operations,
	} as NodeVersion['resources'],
	concurrencyOption: itemsInParallelOption,
	failedItems,
};
