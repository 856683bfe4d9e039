// @ts-check
'use strict';

// Which rows the collect workflow will look at again, read from the workflow itself (its Data Table
// Get node's filter), so the bench keeps telling open rows from finished ones when the example
// records its outcomes in other words.

const DATA_TABLE_TYPE = 'n8n-nodes-base.dataTable';

/** @typedef {(row: Record<string, unknown>) => boolean} RowTest */

/** @param {unknown} value */
const empty = (value) => value === null || value === undefined || value === '';

/** @type {Record<string, (cell: unknown, value: unknown) => boolean>} */
const CONDITIONS = {
	eq: (cell, value) => String(cell ?? '') === String(value ?? ''),
	neq: (cell, value) => String(cell ?? '') !== String(value ?? ''),
	isEmpty: (cell) => empty(cell),
	isNotEmpty: (cell) => !empty(cell),
	gt: (cell, value) => Number(cell) > Number(value),
	gte: (cell, value) => Number(cell) >= Number(value),
	lt: (cell, value) => Number(cell) < Number(value),
	lte: (cell, value) => Number(cell) <= Number(value),
};

/**
 * The test a row must pass to be collected again: the collect workflow's first Data Table node
 * that gets rows, its conditions and its match type. Fails on what it cannot read (an expression
 * as a value, a condition it does not know) rather than guess.
 * @param {any} workflow
 * @returns {{test: RowTest, describe: string}}
 */
function openRowTest(workflow) {
	const node = workflow.nodes.find(
		(/** @type {any} */ n) => n.type === DATA_TABLE_TYPE && n.parameters.operation === 'get',
	);
	if (!node) throw new Error(`${workflow.name} has no Data Table node that gets rows`);
	const conditions = node.parameters.filters?.conditions ?? [];
	const tests = conditions.map((/** @type {any} */ c) => {
		const compare = CONDITIONS[c.condition ?? 'eq'];
		if (!compare) throw new Error(`"${node.name}" filters with "${c.condition}", unknown here`);
		if (typeof c.keyValue === 'string' && c.keyValue.startsWith('='))
			throw new Error(`"${node.name}" filters by an expression (${c.keyValue}), unknown here`);
		return (/** @type {Record<string, unknown>} */ row) => compare(row[c.keyName], c.keyValue);
	});
	const any = node.parameters.matchType === 'anyCondition';
	/** @type {RowTest} */
	const test = (row) =>
		tests.length === 0 || (any ? tests.some((t) => t(row)) : tests.every((t) => t(row)));
	const describe = conditions
		.map((/** @type {any} */ c) => `${c.keyName} ${c.condition ?? 'eq'} ${c.keyValue ?? ''}`)
		.join(any ? ' or ' : ' and ');
	return { test, describe: describe || 'every row' };
}

module.exports = { openRowTest };
