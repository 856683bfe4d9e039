// @ts-check
'use strict';

// The HTTP calls the suite makes to the main process: the ones the editor makes (owner setup,
// execution list, stop) and the production webhooks that start executions.

const { ownerSession } = require('../../e2e/lib/n8n-server');
const { LOADED_MACHINE_MS, LOADED_BATCH_MS } = require('../../e2e/lib/waits');
const { until } = require('./until');

/**
 * The owner account, set up as the editor suites do, and a client of its session.
 * @param {string} baseUrl
 */
async function setupOwner(baseUrl) {
	return restClient(baseUrl, await ownerSession(baseUrl, LOADED_MACHINE_MS));
}

/**
 * Waits until the main answers its readiness check: n8n refuses every REST call with 503 "Database
 * is not ready!" while a check of its database connection has failed, which a loaded machine makes
 * happen mid-run, and answers again once a later check succeeds.
 * @param {string} baseUrl
 */
function databaseReady(baseUrl) {
	const ready = () =>
		fetch(`${baseUrl}/healthz/readiness`).then(
			(r) => r.ok,
			() => false,
		);
	return until(ready, `${baseUrl}/healthz/readiness to answer ready`, { everyMs: 1000 });
}

/** @param {string} baseUrl @param {Record<string, string>} session */
function restClient(baseUrl, session) {
	/** @param {string} method @param {string} route @param {object} [body] @returns {Promise<any>} */
	const call = async (method, route, body) => {
		const res = await fetch(`${baseUrl}/rest/${route}`, {
			method,
			headers: { ...session, ...(body ? { 'content-type': 'application/json' } : {}) },
			body: body ? JSON.stringify(body) : undefined,
		});
		const text = await res.text();
		// Refused before any handler ran, so the call is made again once the database is back.
		if (res.status === 503 && text.includes('Database is not ready')) {
			await databaseReady(baseUrl);
			return call(method, route, body);
		}
		if (!res.ok)
			throw new Error(`${method} /rest/${route} answered ${res.status}: ${text.slice(0, 300)}`);
		const parsed = text ? JSON.parse(text) : {};
		return parsed.data ?? parsed;
	};
	return {
		/** @param {string} workflowId @returns {Promise<{id: string, status: string, startedAt: string, stoppedAt?: string}[]>} */
		executions: async (workflowId) => {
			const filter = encodeURIComponent(JSON.stringify({ workflowId }));
			const data = await call('GET', `executions?filter=${filter}&limit=100`);
			return data.results ?? data;
		},
		/**
		 * One execution as the editor's execution view reads it: `data` is its run data, flattened
		 * (n8n's `flatted` reads it).
		 * @param {string} id
		 * @returns {Promise<{id: string, status: string, data?: string}>}
		 */
		execution: (id) => call('GET', `executions/${id}`),
		/** @param {string} id */
		stop: (id) => call('POST', `executions/${id}/stop`, {}),
		/**
		 * Publishes a workflow's saved version as the editor's Publish button does (n8n 2.x): its
		 * production webhook listens from then on, with no n8n command of its own to start.
		 * @param {string} id
		 */
		publish: async (id) => {
			const { versionId } = await call('GET', `workflows/${id}`);
			await call('POST', `workflows/${id}/activate`, { versionId });
		},
		/**
		 * The editor's Execute button: the whole workflow from its trigger, as a manual run.
		 * @param {string} workflowId @param {string} trigger
		 * @returns {Promise<{executionId?: string}>}
		 */
		runManually: (workflowId, trigger) =>
			call('POST', `workflows/${workflowId}/run`, { triggerToStartFrom: { name: trigger } }),
		/**
		 * A Data Table in the owner's project; workflows find it by name.
		 * @param {string} name
		 * @param {{name: string, type: 'string' | 'number' | 'boolean' | 'date'}[]} columns
		 */
		createDataTable: async (name, columns) => {
			const project = await call('GET', 'projects/personal');
			const table = await call('POST', `projects/${project.id}/data-tables`, { name, columns });
			const path = `projects/${project.id}/data-tables/${table.id}`;
			return {
				id: table.id,
				/** Deletes the table, so a later scenario can create one of the same name. */
				drop: () => call('DELETE', path),
				/** @returns {Promise<Record<string, any>[]>} every row, page by page */
				rows: async () => {
					const rows = [];
					for (let skip = 0; ; skip += 100) {
						const page = await call('GET', `${path}/rows?take=100&skip=${skip}`);
						rows.push(...page.data);
						if (page.data.length < 100) return rows;
					}
				},
			};
		},
	};
}

/**
 * @param {string} baseUrl
 * @param {string} webhookPath
 * @param {object} [body]
 * @returns {Promise<{status: number, body: any, ms: number}>}
 */
async function callWebhook(baseUrl, webhookPath, body = {}) {
	const started = Date.now();
	const res = await fetch(`${baseUrl}/webhook/${webhookPath}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
		signal: AbortSignal.timeout(LOADED_BATCH_MS),
	});
	const text = await res.text();
	let parsed;
	try {
		parsed = JSON.parse(text);
	} catch {
		parsed = text;
	}
	return { status: res.status, body: parsed, ms: Date.now() - started };
}

module.exports = { setupOwner, callWebhook };
