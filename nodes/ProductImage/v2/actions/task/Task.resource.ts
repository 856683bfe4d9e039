import * as get from './get.operation';
import * as wait from './wait.operation';

export const operations = { get, wait };
