import * as create from './create.operation';

export const operations = { create };
