import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export const operations = { create };

export const description: INodeProperties[] = create.description;
