// @ts-check
'use strict';

const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { cacheDir } = require('./config');
const { alive } = require('./lock');

/** A port the OS hands out and releases at once. */
function osPort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** @type {Set<string>} */
const reserved = new Set();
process.once('exit', () => {
	for (const file of reserved) fs.rmSync(file, { force: true });
});

/**
 * Whether `port` is now this process's: a file per port in the cache, created only if absent. A
 * reservation whose process is gone is removed, and the port skipped this time.
 * @param {number} port
 */
function reserve(port) {
	const dir = path.join(cacheDir(), 'ports');
	fs.mkdirSync(dir, { recursive: true });
	const file = path.join(dir, String(port));
	try {
		fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
	} catch (err) {
		if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
		let owner = NaN;
		try {
			owner = Number(fs.readFileSync(file, 'utf8'));
		} catch (readErr) {
			// Its holder ended between the two calls and removed it: the port is skipped all the same.
			if (/** @type {NodeJS.ErrnoException} */ (readErr).code !== 'ENOENT') throw readErr;
		}
		if (Number.isInteger(owner) && owner > 0 && !alive(owner)) fs.rmSync(file, { force: true });
		return false;
	}
	reserved.add(file);
	return true;
}

/**
 * A free port, kept from every other process of the run until this one ends. n8n binds its port
 * only after its migrations, many seconds after the OS released it here, and meanwhile the OS
 * hands the same port to the next asker: another suite's n8n then took it, and this suite's
 * requests went to that n8n.
 * @param {() => Promise<number>} [pick] where the candidates come from (the OS)
 * @returns {Promise<number>}
 */
async function freePort(pick = osPort) {
	for (;;) {
		const port = await pick();
		if (reserve(port)) return port;
	}
}

/** @param {number} port */
function portInUse(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

module.exports = { freePort, portInUse };
