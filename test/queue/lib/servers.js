// @ts-check
'use strict';

// A private Postgres cluster and a private Redis on free ports. Both run in the foreground as
// children of this process, so the e2e exit hook that stops every child also stops them,
// whatever way the suite ends.

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { run, startDetached, tail } = require('../../e2e/lib/proc');
const { freePort } = require('../../e2e/lib/ports');
const { step } = require('../../e2e/lib/log');
const { LOADED_MACHINE_MS } = require('../../e2e/lib/waits');

/**
 * @param {{child: import('node:child_process').ChildProcess}} proc
 * @param {() => Promise<boolean>} ready
 * @param {string} what
 * @param {() => string} output
 */
async function waitReady(proc, ready, what, output) {
	const deadline = Date.now() + LOADED_MACHINE_MS;
	while (Date.now() < deadline) {
		if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
			throw new Error(
				`${what} did not start: it exited (code ${proc.child.exitCode}):\n${tail(output(), 15)}`,
			);
		}
		if (await ready()) return;
		await new Promise((r) => setTimeout(r, 300));
	}
	throw new Error(
		`${what} did not start: no answer within ${LOADED_MACHINE_MS / 1000} s:\n${tail(output(), 15)}`,
	);
}

/** @param {import('node:child_process').ChildProcess} child */
function collect(child) {
	let text = '';
	child.stdout?.on('data', (c) => (text += c.toString('utf8')));
	child.stderr?.on('data', (c) => (text += c.toString('utf8')));
	return () => text;
}

/** Sends PING and expects +PONG: a bound port alone may still be loading. @param {number} port */
function redisPing(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.setTimeout(1000, () => socket.destroy());
		socket.once('connect', () => socket.write('PING\r\n'));
		socket.once('data', (d) => {
			socket.destroy();
			resolve(d.toString().startsWith('+PONG'));
		});
		socket.once('error', () => resolve(false));
		socket.once('close', () => resolve(false));
	});
}

/** @param {{redisServer: string, dir: string}} o */
async function startRedis({ redisServer, dir }) {
	const s = step('starting a private Redis');
	fs.mkdirSync(dir, { recursive: true });
	const port = await freePort();
	const proc = startDetached(redisServer, [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		dir,
	]);
	const output = collect(proc.child);
	await waitReady(proc, () => redisPing(port), 'Redis', output);
	s.done(`port ${port}`);
	return { port, stop: proc.stop };
}

/**
 * The cluster runs as the `postgres` user, who must be able to reach its folder: under a
 * home folder of mode 700 it cannot, so the caller picks a folder `postgres` can traverse.
 * @param {{postgresBin: string, dir: string}} o
 */
async function startPostgres({ postgresBin, dir }) {
	const s = step('starting a private Postgres cluster');
	const asPostgres = (/** @type {string} */ cmd, /** @type {string[]} */ args) =>
		run('runuser', ['-u', 'postgres', '--', path.join(postgresBin, cmd), ...args]);
	fs.mkdirSync(dir, { recursive: true });
	const dataDir = path.join(dir, 'data');
	const socketDir = path.join(dir, 'socket');
	fs.mkdirSync(socketDir, { recursive: true });
	const chown = await run('chown', ['-R', 'postgres:postgres', dir]);
	if (chown.code !== 0)
		throw new Error(
			`Postgres did not start: cannot hand ${dir} to the postgres user:\n${chown.stderr}`,
		);
	const init = await asPostgres('initdb', [
		'-D',
		dataDir,
		'-U',
		'postgres',
		'--auth=trust',
		'-E',
		'UTF8',
		'--no-sync',
	]);
	if (init.code !== 0)
		throw new Error(
			`Postgres did not start: initdb failed (exit ${init.code}):\n${tail(init.stdout + init.stderr, 15)}`,
		);
	const port = await freePort();
	const proc = startDetached('runuser', [
		'-u',
		'postgres',
		'--',
		path.join(postgresBin, 'postgres'),
		'-D',
		dataDir,
		'-p',
		String(port),
		'-k',
		socketDir,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'synchronous_commit=off',
		'-c',
		'full_page_writes=off',
	]);
	const output = collect(proc.child);
	const isReady = async () =>
		(await run(path.join(postgresBin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port)]))
			.code === 0;
	await waitReady(proc, isReady, 'Postgres', output);
	const created = await run(path.join(postgresBin, 'createdb'), [
		'-h',
		'127.0.0.1',
		'-p',
		String(port),
		'-U',
		'postgres',
		'n8n',
	]);
	if (created.code !== 0) {
		await proc.stop();
		throw new Error(`Postgres did not start: createdb failed:\n${created.stderr}`);
	}
	s.done(`port ${port}, data in ${dataDir}`);
	return {
		port,
		database: 'n8n',
		user: 'postgres',
		password: 'unused-trust-auth',
		stop: proc.stop,
	};
}

/**
 * One SQL statement through psql, for what the REST API does not tell (sizes, counts of a whole
 * table): its rows, each a list of text fields.
 * @param {{postgresBin: string, port: number, database: string}} o
 * @param {string} sql
 * @returns {Promise<string[][]>}
 */
async function psql(o, sql) {
	const result = await run(
		path.join(o.postgresBin, 'psql'),
		[
			...['-h', '127.0.0.1', '-p', String(o.port), '-U', 'postgres', '-d', o.database],
			...['-X', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
		],
		{ label: 'psql', timeoutMs: 120000 },
	);
	if (result.code !== 0) throw new Error(`psql failed (${sql.slice(0, 80)}): ${result.stderr}`);
	return result.stdout
		.split('\n')
		.filter((line) => line !== '')
		.map((line) => line.split('\t'));
}

/**
 * A folder the postgres user can enter: the suite's cache folder when every parent allows it,
 * otherwise a folder of its own under /var/tmp.
 * @param {string} preferred
 */
async function postgresReachableDir(preferred) {
	fs.mkdirSync(preferred, { recursive: true });
	const probe = await run('runuser', ['-u', 'postgres', '--', 'test', '-x', preferred]);
	if (probe.code === 0) return preferred;
	const fallback = fs.mkdtempSync(path.join('/var/tmp', 'n8n-nodes-product-image-queue-'));
	fs.chmodSync(fallback, 0o755);
	return fallback;
}

module.exports = { startRedis, startPostgres, postgresReachableDir, psql };
