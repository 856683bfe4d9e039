// @ts-check
'use strict';

const net = require('node:net');

/**
 * A port the OS just handed out and released. Another process could take it before n8n
 * binds it, but that window is short and far rarer than two runs both using n8n's
 * fixed default.
 * @returns {Promise<number>}
 */
function freePort() {
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
