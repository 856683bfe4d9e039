import type { INodeProperties } from 'n8n-workflow';

import * as analyze from './analyze.operation';

export const operations = { analyze };

export const description: INodeProperties[] = analyze.description;
