import * as upload from './upload.operation';
import * as generate from './generate.operation';
import * as generateAndWait from './generateAndWait.operation';
import * as download from './download.operation';

export const operations = { upload, generate, generateAndWait, download };
