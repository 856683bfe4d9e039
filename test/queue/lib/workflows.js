// @ts-check
'use strict';

// Workflows as the queue-mode suite runs them: every example's test copy (made by the e2e
// suite's prepareWorkflow) started by a production webhook instead of a Manual Trigger, and
// the suite's own probes (a multipart upload with many items, a long wait to stop).

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { prepareWorkflow, CREDENTIAL, stableId } = require('../../e2e/lib/workflows');
const { REPO_ROOT } = require('../../e2e/lib/config');

const MANUAL_TYPE = 'n8n-nodes-base.manualTrigger';
const NODE_TYPE = 'n8n-nodes-product-image.productImage';

/**
 * A Webhook node of the given name and place; `lastNode` answers with the last node's items
 * once the worker has finished, `onReceived` at once.
 * @param {{name: string, position?: number[], id?: string}} like
 * @param {string} webhookPath
 * @param {'lastNode' | 'onReceived'} responseMode
 */
function webhookNode(like, webhookPath, responseMode) {
	return {
		id: like.id ?? crypto.randomUUID(),
		name: like.name,
		position: like.position ?? [0, 0],
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		webhookId: crypto.randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path: webhookPath,
			responseMode,
			responseData: 'allEntries',
			options: {},
		},
	};
}

/**
 * @param {import('../../e2e/lib/workflows').WorkflowFile} example
 * @returns {{workflow: any, webhookPath: string}}
 */
function webhookCopy(example) {
	const workflow = prepareWorkflow(example, { pins: 'replace' });
	const webhookPath = `queue-${workflow.id}`;
	workflow.nodes = workflow.nodes.map((/** @type {any} */ n) =>
		n.type === MANUAL_TYPE ? webhookNode(n, webhookPath, 'lastNode') : n,
	);
	return { workflow, webhookPath };
}

/**
 * An example as a person runs it from the editor: its Manual Trigger kept, under an id of its own,
 * started by the editor's call (POST /rest/workflows/:id/run from that trigger). Imported, never
 * published: it has no trigger a production run could start from.
 * @param {import('../../e2e/lib/workflows').WorkflowFile} example
 * @returns {{workflow: any, trigger: string, manual: true}}
 */
function manualCopy(example) {
	const workflow = prepareWorkflow(example, { pins: 'replace' });
	workflow.id = stableId(`queue-manual-${example.name}`);
	workflow.name = `${workflow.name} (run from the editor)`;
	const trigger = workflow.nodes.find((/** @type {any} */ n) => n.type === MANUAL_TYPE);
	if (!trigger) throw new Error(`${example.name} has no Manual Trigger to run it from`);
	return { workflow, trigger: trigger.name, manual: true };
}

/** The product photo the first example embeds: a real PNG small enough to send many times. */
function samplePhotoBase64() {
	const example = JSON.parse(
		fs.readFileSync(path.join(REPO_ROOT, 'examples', 'product-photo-to-aplus-images.json'), 'utf8'),
	);
	const set = example.nodes.find((/** @type {any} */ n) => n.name === 'Product photo');
	return set.parameters.assignments.assignments.find((/** @type {any} */ a) => a.name === 'photo')
		.value;
}

/**
 * @param {string} name
 * @param {any[]} nodes in order; each is connected to the next
 */
function chain(name, nodes) {
	/** @type {Record<string, any>} */
	const connections = {};
	nodes.forEach((n, i) => {
		n.position = [i * 220, 0];
		if (i + 1 < nodes.length)
			connections[n.name] = { main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] };
	});
	return {
		id: stableId(`queue-${name}`),
		name: `queue suite: ${name}`,
		active: false,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	};
}

/** @param {string} name @param {object} parameters */
function productImageNode(name, parameters) {
	return {
		id: crypto.randomUUID(),
		name,
		type: NODE_TYPE,
		typeVersion: 1,
		credentials: { productImageApi: { ...CREDENTIAL } },
		parameters,
	};
}

/**
 * N products, each with a photo as binary data, through Generate and Wait with the photo as
 * an Input Binary Field: every item uploads its photo (multipart) inside the worker.
 * @param {number} items
 */
function uploadManyWorkflow(items) {
	const webhookPath = 'queue-upload-many';
	const photo = samplePhotoBase64();
	const products = {
		id: crypto.randomUUID(),
		name: 'Products',
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: {
			jsCode: `return Array.from({ length: ${items} }, (_, i) => ({ json: { productName: 'Bottle ' + (i + 1), photo: ${JSON.stringify(photo)} } }));`,
		},
	};
	const toFile = {
		id: crypto.randomUUID(),
		name: 'Photo to file',
		type: 'n8n-nodes-base.convertToFile',
		typeVersion: 1.1,
		parameters: {
			operation: 'toBinary',
			sourceProperty: 'photo',
			binaryPropertyName: 'data',
			options: { dataIsBase64: true, fileName: 'bottle.png', mimeType: 'image/png' },
		},
	};
	const generate = productImageNode('Generate and wait', {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: "={{ 'Catalogue photo of ' + $('Products').item.json.productName }}",
		productName: "={{ $('Products').item.json.productName }}",
		inputBinaryFields: 'data',
		size: '1:1',
		resolution: '1k',
		options: { initialDelay: 0.2, pollInterval: 0.2, maxConcurrency: 5 },
	});
	const workflow = chain('upload many', [
		webhookNode({ name: 'Webhook' }, webhookPath, 'lastNode'),
		products,
		toFile,
		generate,
	]);
	return { workflow, webhookPath };
}

/** One Generate and Wait on a task that takes minutes: the execution the suite stops. */
function longWaitWorkflow() {
	const webhookPath = 'queue-long-wait';
	const generate = productImageNode('Generate and wait', {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'A product photo that takes a long time',
		size: '1:1',
		resolution: '1k',
		options: { initialDelay: 0.2, pollInterval: 0.2, maxWaitTime: 600 },
	});
	const workflow = chain('long wait', [
		webhookNode({ name: 'Webhook' }, webhookPath, 'onReceived'),
		generate,
	]);
	return { workflow, webhookPath };
}

/**
 * A Code node in place of the store's "Get products": N products shaped as Shopify returns them
 * (id, title, image.src), ids from `firstId`. With `trigger`, a run started with a body
 * `{products: n}` on that webhook reads n products instead. With `page`, it answers as the submit
 * example's paged read does: one item `{products: [...]}` holding the page after the cursor
 * (`page.sinceId`, Shopify's since_id) of at most `page.limit` products (both the read's own
 * expressions), made in time proportional to the page, not the catalog.
 * @param {{id: string, name: string, position: number[]}} like @param {number} products @param {number} firstId
 * @param {string} [trigger] @param {{limit: string, sinceId: string}} [page]
 */
function catalogueNode(like, products, firstId, trigger, page) {
	const count = trigger
		? `($(${JSON.stringify(trigger)}).first().json.body?.products ?? ${products})`
		: String(products);
	const product = `(i) => ({ id: ${firstId} + i, title: 'Product ' + (i + 1), image: { src: 'https://shop.example/p' + (i + 1) + '.png' } })`;
	const jsCode = page
		? `const count = ${count};\nconst after = Number(${page.sinceId});\nconst start = after ? after - ${firstId} + 1 : 0;\nconst size = Math.max(0, Math.min(${page.limit}, count - start));\nreturn [{ json: { products: Array.from({ length: size }, (_, k) => (${product})(start + k)) } }];`
		: `return Array.from({ length: ${count} }, (_, i) => ({ json: (${product})(i) }));`;
	return {
		id: like.id,
		name: like.name,
		position: like.position,
		type: 'n8n-nodes-base.code',
		typeVersion: 2,
		parameters: { jsCode },
	};
}

/**
 * The wait settings of an example's node (the current node version keeps them in Options →
 * Waiting) at the simulator's short pace.
 * @param {any} options @param {number} [maxWaitTime]
 */
function quickWaits(options = {}, maxWaitTime) {
	const waiting = {
		...options.waiting?.value,
		initialDelay: 0.2,
		pollInterval: 0.2,
		...(maxWaitTime === undefined ? {} : { maxWaitTime }),
	};
	return { ...options, waiting: { value: waiting } };
}

/**
 * The fan-out example as the suite runs it: started by a webhook, the catalogue made by a
 * Code node (N products with photo addresses) instead of Shopify, the Data Table found by
 * name (2.x; 1.123's Data Table node picks tables from a list or by id only), and the wait
 * polling at the short pace of the simulator's tasks.
 * @param {number} products
 */
function fanOutCopy(products) {
	const copy = webhookCopy({
		name: 'catalogue-fan-out',
		file: path.join(REPO_ROOT, 'examples', 'catalogue-fan-out.json'),
		set: 'examples',
	});
	copy.workflow.nodes = copy.workflow.nodes.map((/** @type {any} */ n) => {
		if (n.name === 'Get products') return catalogueNode(n, products, 1000);
		if (n.name === 'Settings') {
			n.parameters.assignments.assignments = n.parameters.assignments.assignments.map(
				(/** @type {any} */ a) => (a.name === 'n8nUrl' ? { ...a, value: MAIN_URL } : a),
			);
		}
		if (n.type === NODE_TYPE) n.parameters.options = quickWaits(n.parameters.options);
		if (n.type === 'n8n-nodes-base.dataTable')
			n.parameters.dataTableId = { __rl: true, mode: 'name', value: FAN_OUT_TABLE };
		return n;
	});
	return copy;
}

/**
 * The submit-now / collect-later pair as the suite runs them: started by webhooks instead of
 * schedules (the submit run answers at once, the collect run when it is done), the catalogue
 * from a Code node (the submit run's page after its cursor), each Data Table found by name, and
 * waits at the simulator's short pace. The submit copy names the run-state table it needs
 * (`dataTables`, created by the stack). The catalog bench keeps the example's wait options
 * (`waitOptions: null`), answers the collect webhook at once, and sets the submit run's pace,
 * page and batch; the queue suite shortens how long a run's hold lasts.
 * @param {number} products
 * @param {{waitOptions?: null, collectResponse?: 'onReceived' | 'lastNode', submitsPerMinute?: number, productsPerPage?: number, pagesPerRun?: number, secondsPerBatch?: number, secondsARunHolds?: number}} [o]
 */
function submitCollectCopies(products, o = {}) {
	/** @param {string} name @param {'onReceived' | 'lastNode'} responseMode */
	const copy = (name, responseMode) => {
		const workflow = prepareWorkflow(
			{ name, file: path.join(REPO_ROOT, 'examples', `${name}.json`), set: 'examples' },
			{ pins: 'replace' },
		);
		const webhookPath = `queue-${name}`;
		const trigger = workflow.nodes.find((/** @type {any} */ n) => n.type === MANUAL_TYPE)?.name;
		workflow.nodes = workflow.nodes.map((/** @type {any} */ n) => {
			// prepareWorkflow has made the schedule a Manual Trigger already.
			if (n.type === MANUAL_TYPE) return webhookNode(n, webhookPath, responseMode);
			if (n.name === 'Get products')
				return catalogueNode(n, products, CATALOG_FIRST_ID, trigger, pageOf(n));
			if (n.name === 'Settings')
				for (const key of /** @type {const} */ ([
					'submitsPerMinute',
					'productsPerPage',
					'pagesPerRun',
					'secondsPerBatch',
					'secondsARunHolds',
				]))
					if (o[key] !== undefined) setAssignment(n, key, o[key]);
			if (n.type === 'n8n-nodes-base.dataTable')
				n.parameters.dataTableId = {
					__rl: true,
					mode: 'name',
					value: n.parameters.dataTableId?.cachedResultName || TASKS_TABLE,
				};
			if (n.type === NODE_TYPE && o.waitOptions !== null)
				n.parameters.options = quickWaits(n.parameters.options, 3);
			return n;
		});
		return { workflow, webhookPath };
	};
	return {
		submit: { ...copy('catalogue-submit', 'onReceived'), dataTables: [RUNS] },
		collect: copy('catalogue-collect', o.collectResponse ?? 'lastNode'),
	};
}

/**
 * The page a store node asks for: its `limit` and `since_id` query parameters (expressions without
 * their braces), or none: a node that reads the whole catalog.
 * @param {any} node
 * @returns {{limit: string, sinceId: string} | undefined}
 */
function pageOf(node) {
	/** @param {string} name */
	const query = (name) => {
		const value = (node.parameters.queryParameters?.parameters ?? []).find(
			(/** @type {any} */ p) => p.name === name,
		)?.value;
		return typeof value === 'string' ? value.replace(/^=\{\{\s*|\s*\}\}$/g, '') : undefined;
	};
	const [limit, sinceId] = [query('limit'), query('since_id')];
	return limit && sinceId ? { limit, sinceId } : undefined;
}

/** A Set node's assignment, which must exist: a renamed setting fails here, not silently. @param {any} node @param {string} name @param {unknown} value */
function setAssignment(node, name, value) {
	const assignment = node.parameters.assignments.assignments.find(
		(/** @type {any} */ a) => a.name === name,
	);
	if (!assignment) throw new Error(`the node "${node.name}" has no assignment "${name}"`);
	assignment.value = value;
}

const TASKS_TABLE = 'catalogue_tasks';
/** The columns the pair's sticky notes tell an operator to create. */
const TASKS_COLUMNS = /** @type {const} */ ([
	{ name: 'product_id', type: 'string' },
	{ name: 'title', type: 'string' },
	{ name: 'task_id', type: 'string' },
	{ name: 'status', type: 'string' },
	{ name: 'request_id', type: 'string' },
	{ name: 'submitted_at', type: 'string' },
	{ name: 'image_count', type: 'number' },
	{ name: 'images_downloaded', type: 'number' },
	{ name: 'image_urls', type: 'string' },
	{ name: 'error', type: 'string' },
	{ name: 'collected_at', type: 'string' },
]);

/**
 * The table's columns for workflows that may write more than the note asks for: every column a
 * Data Table node of theirs writes or filters by, text unless listed above, so a column an example
 * adds later does not fail the insert.
 * @param {any[]} workflows
 * @returns {{name: string, type: 'string' | 'number'}[]}
 */
function tasksColumnsFor(workflows) {
	/** @type {{name: string, type: 'string' | 'number'}[]} */
	const columns = TASKS_COLUMNS.map((c) => ({ ...c }));
	for (const node of workflows.flatMap((w) => w.nodes)) {
		if (node.type !== 'n8n-nodes-base.dataTable') continue;
		if ((node.parameters.dataTableId?.value ?? TASKS_TABLE) !== TASKS_TABLE) continue;
		const written = Object.keys(node.parameters.columns?.value ?? {});
		const filtered = (node.parameters.filters?.conditions ?? []).map(
			(/** @type {any} */ c) => c.keyName,
		);
		for (const name of [...written, ...filtered])
			if (!columns.some((c) => c.name === name)) columns.push({ name, type: 'string' });
	}
	return columns;
}

/** The first product id of the pair's catalog (ids count up from it, as Shopify's do). */
const CATALOG_FIRST_ID = 2000;

/** Where the submit runs keep their cursor, the run's holder and the batch being sent. */
const RUNS = {
	name: 'catalogue_runs',
	columns: [
		{ name: 'name', type: 'string' },
		{ name: 'holder', type: 'string' },
		{ name: 'lease_until', type: 'number' },
		{ name: 'after', type: 'string' },
		{ name: 'sending', type: 'string' },
	],
};

const FAN_OUT_TABLE = 'catalogue_images';
// Replaced by the main process' address when the stack imports the workflows (lib/stack.js).
const MAIN_URL = '__N8N_MAIN_URL__';

module.exports = {
	manualCopy,
	fanOutCopy,
	FAN_OUT_TABLE,
	submitCollectCopies,
	TASKS_TABLE,
	TASKS_COLUMNS,
	tasksColumnsFor,
	RUNS,
	CATALOG_FIRST_ID,
	MAIN_URL,
	webhookCopy,
	uploadManyWorkflow,
	longWaitWorkflow,
};
