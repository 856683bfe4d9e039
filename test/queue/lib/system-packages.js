// @ts-check
'use strict';

// Redis and Postgres come from the machine's Debian packages; a fresh CI machine gets them
// from apt. Nothing here starts a system service: the suite runs private servers.

const fs = require('node:fs');
const path = require('node:path');
const { run, tail } = require('../../e2e/lib/proc');
const { step } = require('../../e2e/lib/log');

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

/** @param {string} name */
function onPath(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, name)));
}

/**
 * @param {string} what the server the packages are for, named in the error
 * @param {string[]} packages
 */
async function aptInstall(what, packages) {
  const s = step(`installing ${what} (apt-get install ${packages.join(' ')})`);
  if (!onPath('apt-get')) throw new Error(`${what} is not installed and this machine has no apt-get to install it (${packages.join(', ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = await run('apt-get', ['update'], { env, label: 'apt-get update', echo: 'throttled' });
  if (update.code !== 0) throw new Error(`${what} could not be installed: apt-get update failed (exit ${update.code}):\n${tail(update.stdout + update.stderr, 15)}`);
  const install = await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env, label: 'apt-get install', echo: 'throttled' });
  if (install.code !== 0) throw new Error(`${what} could not be installed: apt-get install ${packages.join(' ')} failed (exit ${install.code}):\n${tail(install.stdout + install.stderr, 15)}`);
  s.done();
}

/** @returns {Promise<{redisServer: string, postgresBin: string}>} */
async function ensureServers() {
  if (!onPath('redis-server')) await aptInstall('Redis', ['redis-server']);
  if (!postgresBinDir()) await aptInstall('Postgres', ['postgresql']);
  const postgresBin = postgresBinDir();
  if (!postgresBin) throw new Error(`Postgres is not usable: apt installed it but ${POSTGRES_ROOT}/<version>/bin/postgres is missing`);
  return { redisServer: 'redis-server', postgresBin };
}

module.exports = { ensureServers };
