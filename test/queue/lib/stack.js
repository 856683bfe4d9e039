// @ts-check
'use strict';

// Brings up everything one queue-mode run needs, in order, and takes it down in reverse:
// Redis, Postgres, the simulator, n8n's main process and its workers. `stop` is safe to
// call at any point, also after a failed start.

const fs = require('node:fs');
const path = require('node:path');
const { installPackage } = require('../../e2e/install-package');
const { writeCredentialFile } = require('../../e2e/lib/workflows');
const { info } = require('../../e2e/lib/log');
const { startRedis, startPostgres, postgresReachableDir, psql } = require('./servers');
const { createQueueN8n, startMain, startWorker } = require('./cluster');
const { setupOwner } = require('./rest');
const { MAIN_URL } = require('./workflows');
const { freePort } = require('../../e2e/lib/ports');

/**
 * @param {object} o
 * @param {import('../../e2e/install-n8n').N8nInstall} o.install
 * @param {string} o.tarball
 * @param {string} o.workDir
 * @param {{redisServer: string, postgresBin: string}} o.servers
 * @param {{baseUrl: string, apiKey: string}} o.service
 * @param {{baseUrl: string, apiKey: string}} [o.llm]
 * @param {'default' | 'filesystem' | 'database'} o.binaryMode
 * @param {{workflow: any, manual?: boolean, dataTables?: {name: string, columns: {name: string, type: string}[]}[]}[]} o.workflows
 *   imported and published before the main process starts (`manual`: imported only, for runs
 *   from the editor); the Data Tables a workflow names besides the ones a scenario makes are
 *   created once the owner exists
 * @param {number} o.workers
 * @param {number} [o.workerConcurrency]
 * @param {Record<string, string>} [o.env] more of n8n's settings, for the main process and the workers
 */
async function startStack(o) {
	/** @type {(() => Promise<void>)[]} */
	const stops = [];
	/** @type {string[]} */
	const foldersToRemove = [];
	const stop = async () => {
		while (stops.length) {
			const next = stops.pop();
			await next?.().catch((err) => info(`stopping: ${err.message}`));
		}
		for (const dir of foldersToRemove) fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		const logDir = path.join(o.workDir, 'logs');
		fs.mkdirSync(logDir, { recursive: true });
		const redis = await startRedis({
			redisServer: o.servers.redisServer,
			dir: path.join(o.workDir, 'redis'),
		});
		stops.push(redis.stop);
		const pgDir = await postgresReachableDir(path.join(o.workDir, 'postgres'));
		if (!pgDir.startsWith(o.workDir)) foldersToRemove.push(pgDir);
		const postgres = await startPostgres({ postgresBin: o.servers.postgresBin, dir: pgDir });
		stops.push(postgres.stop);

		const userFolder = path.join(o.workDir, 'n8n');
		await installPackage({ node: o.install.node, userFolder, tarball: o.tarball });
		const n8n = await createQueueN8n({
			install: o.install,
			userFolder,
			postgres,
			redis,
			binaryMode: o.binaryMode,
			env: o.env,
		});
		const credentialFile = path.join(userFolder, 'credentials.json');
		writeCredentialFile(credentialFile, o.service, o.llm);
		await n8n.importCredentials(credentialFile);
		fs.rmSync(credentialFile, { force: true });
		const workflowDir = path.join(userFolder, 'workflows');
		fs.mkdirSync(workflowDir, { recursive: true });
		const file = path.join(workflowDir, 'all.json');
		const mainPort = await freePort();
		fs.writeFileSync(
			file,
			JSON.stringify(
				o.workflows.map((w) => w.workflow),
				null,
				2,
			).replaceAll(MAIN_URL, `http://127.0.0.1:${mainPort}`),
		);
		await n8n.importWorkflow(file);
		const published = o.workflows.filter((w) => !w.manual).map((w) => w.workflow.id);
		// 2.x publishes through the running main, as the editor does: each n8n command is a whole
		// n8n start, a dozen seconds of processor time apiece on 2 cores.
		const viaRest = Number(n8n.version.split('.')[0]) >= 2;
		if (!viaRest) for (const id of published) await activate(n8n, id);

		const main = await startMain(n8n, logDir, mainPort);
		stops.push(main.stop);
		const rest = await setupOwner(`http://127.0.0.1:${main.port}`);
		if (viaRest) for (const id of published) await rest.publish(id);
		for (const table of o.workflows.flatMap((w) => w.dataTables ?? []))
			await rest.createDataTable(table.name, table.columns);
		const names = Array.from({ length: o.workers }, (_, i) => `worker-${i + 1}`);
		const workers = await Promise.all(
			names.map(async (name) => {
				const worker = await startWorker(n8n, o.install, logDir, name, {
					concurrency: o.workerConcurrency,
				});
				stops.push(() => worker.stop());
				return worker;
			}),
		);
		/** Starts one more worker, as an operator restarts a dead one. @param {string} name */
		const addWorker = async (name) => {
			const worker = await startWorker(n8n, o.install, logDir, name, {
				concurrency: o.workerConcurrency,
			});
			stops.push(() => worker.stop());
			workers.push(worker);
			return worker;
		};
		return {
			n8n,
			install: o.install,
			main,
			rest,
			workers,
			addWorker,
			logDir,
			baseUrl: `http://127.0.0.1:${main.port}`,
			/** One SQL statement on n8n's database. @param {string} statement */
			sql: (statement) => psql({ postgresBin: o.servers.postgresBin, ...postgres }, statement),
			stop,
		};
	} catch (err) {
		await stop();
		throw err;
	}
}

/**
 * Activates a workflow from n8n 1.x's CLI before the main process starts.
 * @param {Awaited<ReturnType<typeof createQueueN8n>>} n8n
 * @param {string} id
 */
async function activate(n8n, id) {
	const args = ['update:workflow', `--id=${id}`, '--active=true'];
	const result = await n8n.cli(args);
	if (result.code !== 0)
		throw new Error(
			`n8n ${args.join(' ')} failed:\n${result.stdout.slice(-1500)}${result.stderr.slice(-1500)}`,
		);
}

module.exports = { startStack };
