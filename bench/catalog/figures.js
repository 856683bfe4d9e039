// @ts-check
'use strict';

// What a catalog night leaves behind, read from the three places that know: the simulator (every
// submit it accepted, per product, and every request), the Data Table (what the workflows recorded)
// and n8n's Postgres database (executions, their data, binary files, the table's size).

/**
 * @typedef {{sql: (statement: string) => Promise<string[][]>}} Database
 * @typedef {Record<string, any>} Row
 * @typedef {{task_id: string, status: string, created_at: string, body: any, queries: number}} ServiceTask
 */

/** The physical table n8n keeps a Data Table in (n8n 2.x, no table prefix). @param {string} id */
const tableName = (id) => `"data_table_user_${id.replaceAll('"', '')}"`;

/** The id of a Data Table by its name. @param {Database} db @param {string} name */
async function tableIdOf(db, name) {
	const rows = await db.sql(
		`select id from data_table where name = '${name.replaceAll("'", "''")}'`,
	);
	if (!rows.length) throw new Error(`no Data Table named ${name}`);
	return String(rows[0][0]);
}

/** @param {Database} db @param {string} tableId */
async function rowCount(db, tableId) {
	const [[count]] = await db.sql(`select count(*) from ${tableName(tableId)}`);
	return Number(count);
}

/** Every row of the Data Table. @param {Database} db @param {string} tableId @returns {Promise<Row[]>} */
async function tableRows(db, tableId) {
	const lines = await db.sql(`select row_to_json(t) from ${tableName(tableId)} t`);
	return lines.map(([json]) => JSON.parse(json));
}

/**
 * The newest execution of a workflow after `afterId`, if it has appeared.
 * @param {Database} db @param {string} workflowId @param {number} afterId
 * @returns {Promise<{id: number, status: string} | undefined>}
 */
async function executionAfter(db, workflowId, afterId) {
	const rows = await db.sql(
		`select id, status from execution_entity where "workflowId" = '${workflowId}' and id > ${afterId} order by id limit 1`,
	);
	return rows.length ? { id: Number(rows[0][0]), status: rows[0][1] } : undefined;
}

/** @param {Database} db @param {number} id */
async function executionStatus(db, id) {
	const rows = await db.sql(`select status from execution_entity where id = ${id}`);
	return rows[0]?.[0];
}

/** @param {Database} db */
async function lastExecutionId(db) {
	const [[id]] = await db.sql('select coalesce(max(id), 0) from execution_entity');
	return Number(id);
}

/**
 * How often each submit run after `sinceId` read the store: the runs of its "Get products" node,
 * from the execution data n8n keeps, read with n8n's own reader of it (flatted, from `n8nDir`);
 * and whether it took the run (only a run that did asks the service whether it answers).
 * @param {Database} db @param {string} workflowId @param {number} sinceId @param {string} n8nDir
 * @returns {Promise<{pages: number, took: boolean}[]>} one a run, in the order they started
 */
async function storeReads(db, workflowId, sinceId, n8nDir) {
	const { parse } = require(require('node:path').join(n8nDir, 'node_modules', 'flatted'));
	const rows = await db.sql(
		`select d.data from execution_data d join execution_entity e on e.id = d."executionId" where e."workflowId" = '${workflowId}' and e.id > ${sinceId} order by e.id`,
	);
	return rows.map(([data]) => {
		const runData = parse(data).resultData?.runData ?? {};
		return {
			pages: runData['Get products']?.length ?? 0,
			took: runData['Is the service answering?'] !== undefined,
		};
	});
}

/** Execution states after which nothing more happens. */
const FINAL = ['success', 'error', 'crashed', 'canceled'];

/**
 * Executions after `sinceId` (per workflow and status, with n8n's own size of each one's data),
 * their execution data, the Data Table, the binary files of database mode, and the whole database.
 * @param {Database} db @param {string} tableId @param {number} [sinceId]
 */
async function databaseFigures(db, tableId, sinceId = 0) {
	const number = (/** @type {string} */ s) => Number(s);
	const executions = (
		await db.sql(
			`select "workflowId", status, count(*), coalesce(sum("jsonSizeBytes"), 0), coalesce(max("jsonSizeBytes"), 0) from execution_entity where id > ${sinceId} group by 1, 2 order by 1, 2`,
		)
	).map(([workflowId, status, count, bytes, maxBytes]) => ({
		workflowId,
		status,
		count: number(count),
		bytes: number(bytes),
		maxBytes: number(maxBytes),
	}));
	const [[dataRows, dataBytes, dataTableBytes]] = await db.sql(
		`select count(*), coalesce(sum(octet_length(data)), 0), pg_total_relation_size('execution_data') from execution_data where "executionId" > ${sinceId}`,
	);
	const [[rows, tableBytes]] = await db.sql(
		`select count(*), pg_total_relation_size('${tableName(tableId)}') from ${tableName(tableId)}`,
	);
	const [[files, fileBytes, binaryTableBytes]] = await db.sql(
		`select count(*), coalesce(sum("fileSize"), 0), pg_total_relation_size('binary_data') from binary_data`,
	);
	const [[database]] = await db.sql('select pg_database_size(current_database())');
	return {
		executions,
		executionData: {
			rows: number(dataRows),
			bytes: number(dataBytes),
			tableBytes: number(dataTableBytes),
		},
		dataTable: { rows: number(rows), bytes: number(tableBytes) },
		binary: {
			files: number(files),
			bytes: number(fileBytes),
			tableBytes: number(binaryTableBytes),
		},
		databaseBytes: number(database),
	};
}

/**
 * Every product of the catalog against the service's submit log and the Data Table.
 * @param {object} o
 * @param {string[]} o.products the product names the catalog holds, as sent in product_info.name
 * @param {ServiceTask[]} o.tasks every task the service accepted
 * @param {Row[]} o.rows
 * @param {(row: Row) => boolean} o.isOpen rows the collect workflow looks at again
 */
function productFigures(o) {
	/** @type {Map<string, ServiceTask[]>} */
	const byProduct = new Map(o.products.map((name) => [name, []]));
	const strangers = [];
	for (const task of o.tasks) {
		const list = byProduct.get(String(task.body?.product_info?.name));
		if (list) list.push(task);
		else strangers.push(task);
	}
	const counts = [...byProduct.values()].map((list) => list.length);
	const rowOfTask = new Map(o.rows.map((row) => [String(row.task_id), row]));
	const taskById = new Map(o.tasks.map((task) => [task.task_id, task]));
	const unrecorded = o.tasks.filter((task) => !rowOfTask.has(task.task_id));
	const collected = (/** @type {Row} */ row) =>
		Number(row.images_downloaded) >= 1 && Number(row.images_downloaded) === Number(row.image_count);
	const open = o.rows.filter(o.isOpen);
	// A row the collector is done with, without the images, for a task the service finished well:
	// billed, and unless someone looks, never collected.
	const abandoned = o.rows.filter(
		(row) =>
			!o.isOpen(row) &&
			!collected(row) &&
			taskById.get(String(row.task_id))?.status === 'succeeded',
	);
	/** @type {Record<string, number>} */
	const byStatus = {};
	for (const row of o.rows) byStatus[String(row.status)] = (byStatus[String(row.status)] ?? 0) + 1;
	return {
		products: o.products.length,
		exactlyOnce: counts.filter((n) => n === 1).length,
		never: counts.filter((n) => n === 0).length,
		twiceOrMore: counts.filter((n) => n > 1).length,
		strangers: strangers.length,
		unrecorded: unrecorded.length,
		rows: o.rows.length,
		rowProducts: new Set(o.rows.map((row) => String(row.product_id))).size,
		byStatus,
		collected: o.rows.filter(collected).length,
		imagesCollected: o.rows
			.filter(collected)
			.reduce((sum, row) => sum + Number(row.images_downloaded), 0),
		open: open.length,
		abandoned: abandoned.length,
		abandonedErrors: summarize(abandoned.map((row) => String(row.error ?? ''))),
		failedAtService: o.tasks.filter((task) => task.status === 'failed').length,
	};
}

/** The three most frequent texts with their counts. @param {string[]} texts */
function summarize(texts) {
	/** @type {Map<string, number>} */
	const counts = new Map();
	for (const text of texts) {
		const short = text.replace(/task_[0-9a-f]+/g, 'task_…').slice(0, 160);
		counts.set(short, (counts.get(short) ?? 0) + 1);
	}
	return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
}

/**
 * The requests the service saw, per route and answer, and the task queries per task.
 * @param {{requests: {route: string, path: string, status: number, at: number}[]}} stats
 * @param {ServiceTask[]} tasks
 */
function serviceFigures(stats, tasks) {
	/** @type {Record<string, Record<string, number>>} */
	const byRoute = {};
	for (const r of stats.requests) {
		const route = (byRoute[r.route] ??= {});
		route[r.status] = (route[r.status] ?? 0) + 1;
	}
	const total = (/** @type {string} */ route) =>
		Object.values(byRoute[route] ?? {}).reduce((a, b) => a + b, 0);
	const accepted = tasks.map((t) => Date.parse(t.created_at)).sort((a, b) => a - b);
	const answered = tasks.map((t) => t.queries);
	// An image fetched again: when its first download came, to tell which sweep lost it.
	/** @type {Map<string, number>} */
	const firstDownload = new Map();
	/** @type {number[]} */
	const downloadedAgain = [];
	for (const r of stats.requests) {
		if (r.route !== 'asset' || r.status !== 200) continue;
		const first = firstDownload.get(r.path);
		if (first === undefined) firstDownload.set(r.path, r.at);
		else downloadedAgain.push(first);
	}
	return {
		byRoute,
		submits: total('submit'),
		submits429: byRoute.submit?.[429] ?? 0,
		taskQueries: total('task'),
		taskQueriesPerTask: tasks.length ? total('task') / tasks.length : 0,
		answeredQueriesMax: answered.length ? Math.max(...answered) : 0,
		downloads: total('asset'),
		downloadedAgain,
		outageAnswers: Object.values(byRoute).reduce((sum, answers) => sum + (answers[503] ?? 0), 0),
		firstSubmit: accepted[0],
		lastSubmit: accepted[accepted.length - 1],
	};
}

/**
 * Submits a minute from the first accepted to the last. A batch's submits arrive together, so the
 * span from the first to the last holds every batch's share of the minute but the last one's: the
 * pace is the submits before the last batch over that span (with batches of 10, counting all of
 * them would put a run at the limit about 1 % above it, for 1,000 submits).
 * @param {number[]} times sorted @param {number} batch submits sent together
 */
function submitsPerMinute(times, batch = 1) {
	// One batch or less has no pace of its own.
	if (times.length <= Math.max(1, batch)) return 0;
	return ((times.length - batch) / (times[times.length - 1] - times[0])) * 60_000;
}

/**
 * The pace each submit run kept: the tasks the service accepted while it ran, per minute over the
 * whole run and over its first and last tenth (a run that slows down as its execution grows shows
 * it there).
 * @param {{id?: number, startedAt: number, endedAt?: number, status?: string}[]} runs
 * @param {ServiceTask[]} tasks
 * @param {number} [batch] submits a run sends together
 */
function runPaces(runs, tasks, batch = 1) {
	const times = tasks.map((t) => Date.parse(t.created_at)).sort((a, b) => a - b);
	const perMinute = (/** @type {number[]} */ list) => submitsPerMinute(list, batch);
	return runs.map((run) => {
		const own = times.filter((t) => t >= run.startedAt && t <= (run.endedAt ?? Infinity));
		const tenth = Math.max(2, Math.floor(own.length / 10));
		return {
			id: run.id,
			status: run.status,
			submitted: own.length,
			// Reading the catalog and skipping the products that have a row comes first.
			firstSubmitAfterMs: own.length ? own[0] - run.startedAt : undefined,
			perMinute: perMinute(own),
			firstTenth: perMinute(own.slice(0, tenth)),
			lastTenth: perMinute(own.slice(-tenth)),
		};
	});
}

module.exports = {
	runPaces,
	submitsPerMinute,
	tableName,
	tableIdOf,
	FINAL,
	rowCount,
	tableRows,
	executionAfter,
	executionStatus,
	lastExecutionId,
	databaseFigures,
	storeReads,
	productFigures,
	serviceFigures,
};
