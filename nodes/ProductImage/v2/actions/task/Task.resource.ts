import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as wait from './wait.operation';

export const operations = { get, wait };

export const description: INodeProperties[] = [...get.description, ...wait.description];
