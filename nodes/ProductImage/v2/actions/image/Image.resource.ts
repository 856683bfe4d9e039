import type { INodeProperties } from 'n8n-workflow';

import * as upload from './upload.operation';
import * as generate from './generate.operation';
import * as generateAndWait from './generateAndWait.operation';
import * as download from './download.operation';

export const operations = { upload, generate, generateAndWait, download };

export const description: INodeProperties[] = Object.values(operations).flatMap(
	(operation) => operation.description,
);
