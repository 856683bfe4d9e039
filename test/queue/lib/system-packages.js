// @ts-check
'use strict';

// Redis and Postgres come from the machine's Debian packages (a fresh CI machine gets them from
// apt). Nothing here starts a system service: the suite runs private servers.

const fs = require('node:fs');
const path = require('node:path');
const { onPath, ensurePackages } = require('../../e2e/lib/system-packages');

const POSTGRES_ROOT = '/usr/lib/postgresql';

/** The newest installed Postgres' bin folder, or undefined. */
function postgresBinDir() {
	if (!fs.existsSync(POSTGRES_ROOT)) return undefined;
	const versions = fs
		.readdirSync(POSTGRES_ROOT)
		.filter((v) => fs.existsSync(path.join(POSTGRES_ROOT, v, 'bin', 'postgres')))
		.sort((a, b) => Number(b) - Number(a));
	return versions.length ? path.join(POSTGRES_ROOT, versions[0], 'bin') : undefined;
}

/** @returns {Promise<{redisServer: string, postgresBin: string}>} */
async function ensureServers() {
	await ensurePackages('Redis', ['redis-server'], () => onPath('redis-server'));
	await ensurePackages('Postgres', ['postgresql'], () => postgresBinDir() !== undefined);
	const postgresBin = postgresBinDir();
	if (!postgresBin)
		throw new Error(
			`Postgres is not usable: apt installed it but ${POSTGRES_ROOT}/<version>/bin/postgres is missing`,
		);
	return { redisServer: 'redis-server', postgresBin };
}

module.exports = { ensureServers };
