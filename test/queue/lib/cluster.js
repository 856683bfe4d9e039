// @ts-check
'use strict';

// One n8n main process and N workers in queue mode, sharing one user folder (one encryption
// key), one Postgres database and one Redis. Each process gets its own task-broker port and
// a log file: the workers' logs are the record of which worker ran which execution.

const fs = require('node:fs');
const path = require('node:path');
const { createN8n } = require('../../e2e/n8n-process');
const { startDetached } = require('../../e2e/lib/proc');
const { freePort } = require('../../e2e/lib/ports');
const { step } = require('../../e2e/lib/log');
const { nextMajorQueueDefaults } = require('../../e2e/lib/next-major-defaults');
const { LOADED_MACHINE_MS } = require('../../e2e/lib/waits');

/**
 * @param {object} o
 * @param {import('../../e2e/install-n8n').N8nInstall} o.install
 * @param {string} o.userFolder
 * @param {{port: number, database: string, user: string, password: string}} o.postgres
 * @param {{port: number}} o.redis
 * @param {'default' | 'filesystem' | 'database'} o.binaryMode
 * @param {Record<string, string>} [o.env] more of n8n's settings, for every process
 */
async function createQueueN8n({ install, userFolder, postgres, redis, binaryMode, env = {} }) {
	return createN8n({
		install,
		userFolder,
		// @ts-ignore the e2e type lists the single-process modes only
		binaryMode,
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(postgres.port),
			DB_POSTGRESDB_DATABASE: postgres.database,
			DB_POSTGRESDB_USER: postgres.user,
			DB_POSTGRESDB_PASSWORD: postgres.password,
			EXECUTIONS_MODE: 'queue',
			QUEUE_BULL_REDIS_HOST: '127.0.0.1',
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			// 2.x calls n8n's servers from this module; 1.x has no such module and refuses the name.
			...(Number(install.version.split('.')[0]) >= 2
				? { N8N_DISABLED_MODULES: 'mcp-registry' }
				: {}),
			N8N_RUNNERS_ENABLED: 'true',
			...nextMajorQueueDefaults(install),
			...env,
		},
	});
}

/**
 * @param {ReturnType<typeof createQueueN8n> extends Promise<infer T> ? T : never} n8n
 * @param {import('../../e2e/install-n8n').N8nInstall} install
 * @param {string} logDir
 * @param {string} name
 * @param {{concurrency?: number}} [o]
 */
async function startWorker(n8n, install, logDir, name, o = {}) {
	const s = step(`starting ${name}`);
	const healthPort = await freePort();
	const logFile = path.join(logDir, `${name}.log`);
	const fd = fs.openSync(logFile, 'a');
	const env = {
		...n8n.env,
		[n8n.brokerVariable]: String(await freePort()),
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		QUEUE_HEALTH_CHECK_PORT: String(healthPort),
	};
	const args = ['worker', `--concurrency=${o.concurrency ?? 10}`];
	const proc = startDetached(install.node.node, [install.entry, ...args], {
		cwd: n8n.userFolder,
		env,
		stdio: ['ignore', fd, fd],
	});
	fs.closeSync(fd);
	await waitHealthy(`http://127.0.0.1:${healthPort}/healthz/readiness`, proc.child, logFile);
	s.done(`pid ${proc.child.pid}, log ${logFile}`);
	return { name, logFile, healthPort, pid: proc.child.pid, child: proc.child, stop: proc.stop };
}

/**
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 * @param {string} logFile
 */
async function waitHealthy(url, child, logFile) {
	const deadline = Date.now() + LOADED_MACHINE_MS;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null) {
			throw new Error(
				`n8n exited (code ${child.exitCode}) before ${url} answered; see ${logFile}:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`,
			);
		}
		const ok = await fetch(url).then(
			(r) => r.ok,
			() => false,
		);
		if (ok) return;
		await new Promise((r) => setTimeout(r, 1000));
	}
	throw new Error(`${url} did not answer within ${LOADED_MACHINE_MS / 1000} s; see ${logFile}`);
}

/**
 * The main process: editor, REST API and production webhooks.
 * @param {ReturnType<typeof createQueueN8n> extends Promise<infer T> ? T : never} n8n
 * @param {string} logDir
 * @param {number} port
 */
async function startMain(n8n, logDir, port) {
	const s = step('starting the n8n main process');
	const logFile = path.join(logDir, 'main.log');
	const fd = fs.openSync(logFile, 'a');
	try {
		const editor = await n8n.startEditor({ port, stdio: ['ignore', fd, fd] });
		s.done(`${editor.url}, log ${logFile}`);
		return { ...editor, logFile };
	} finally {
		fs.closeSync(fd);
	}
}

/**
 * Which worker logged `Worker started execution <id>`.
 * @param {{name: string, logFile: string}[]} workers
 * @returns {Map<string, string>} execution id → worker name
 */
function executionsByWorker(workers) {
	/** @type {Map<string, string>} */
	const map = new Map();
	for (const w of workers) {
		const text = fs.existsSync(w.logFile) ? fs.readFileSync(w.logFile, 'utf8') : '';
		for (const m of text.matchAll(/Worker started execution (\d+)/g)) map.set(m[1], w.name);
	}
	return map;
}

module.exports = { createQueueN8n, startWorker, startMain, executionsByWorker };
