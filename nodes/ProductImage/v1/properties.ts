import type { INodeProperties } from 'n8n-workflow';

import * as aPlusPlan from './aPlusPlan';
import * as analysis from './analysis';
import * as image from './image';
import * as task from './task';
import { maxConcurrencyOption } from './descriptions';
import type { NodeVersion } from '../router';
import { propertiesOf } from '../router';

/**
 * Version 1, as 0.2.0 released it and workflows saved with it still run: its parameters and the
 * reading of them. Frozen: a change of meaning goes to a new version, never here.
 */
export const version1: NodeVersion = {
	resources: {
		image: image.operations,
		task: task.operations,
		analysis: analysis.operations,
		aPlusPlan: aPlusPlan.operations,
	},
	concurrencyOption: maxConcurrencyOption,
};

export const properties: INodeProperties[] = propertiesOf(version1);
