import * as analyze from './analyze.operation';

export const operations = { analyze };
