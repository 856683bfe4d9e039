// @ts-check
'use strict';

// Programs the suites need from the machine's Debian packages: a fresh CI machine gets them from
// apt. Nothing here starts a system service.

const fs = require('node:fs');
const path = require('node:path');
const { run, tail } = require('./proc');
const { step } = require('./log');
const { acquire } = require('./lock');
const { cacheDir } = require('./config');

/** How long an install waits for another one on the machine (dpkg's lock, apt's lists). */
const APT_LOCK_WAIT_S = 600;

/** @param {string} name */
function onPath(name) {
	return (process.env.PATH ?? '')
		.split(path.delimiter)
		.some((dir) => dir && fs.existsSync(path.join(dir, name)));
}

/**
 * `apt-get update` fails at once while another apt holds the package lists (DPkg::Lock::Timeout
 * covers dpkg's lock only): an apt of the system's own is waited for, as the install waits for dpkg.
 * @param {NodeJS.ProcessEnv} env
 */
async function aptUpdate(env) {
	const deadline = Date.now() + APT_LOCK_WAIT_S * 1000;
	for (;;) {
		const update = await run('apt-get', ['update'], {
			env,
			label: 'apt-get update',
			echo: 'throttled',
		});
		const locked = /Could not get lock/.test(update.stderr);
		if (update.code === 0 || !locked || Date.now() > deadline) return update;
		await new Promise((resolve) => setTimeout(resolve, 5000));
	}
}

/**
 * @param {string} what the program the packages are for, named in the error
 * @param {string[]} packages
 */
async function aptInstall(what, packages) {
	const s = step(`installing ${what} (apt-get install ${packages.join(' ')})`);
	if (!onPath('apt-get'))
		throw new Error(
			`${what} is not installed and this machine has no apt-get to install it (${packages.join(', ')})`,
		);
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	const update = await aptUpdate(env);
	if (update.code !== 0)
		throw new Error(
			`${what} could not be installed: apt-get update failed (exit ${update.code}):\n${tail(update.stdout + update.stderr, 15)}`,
		);
	const install = await run(
		'apt-get',
		[
			'-o',
			`DPkg::Lock::Timeout=${APT_LOCK_WAIT_S}`,
			'install',
			'-y',
			'--no-install-recommends',
			...packages,
		],
		{ env, label: 'apt-get install', echo: 'throttled' },
	);
	if (install.code !== 0)
		throw new Error(
			`${what} could not be installed: apt-get install ${packages.join(' ')} failed (exit ${install.code}):\n${tail(install.stdout + install.stderr, 15)}`,
		);
	s.done();
}

/**
 * Installs `packages` unless `isPresent()`. One install at a time on the machine: the suites of a
 * test command start together on a fresh machine, and a second `apt-get update` beside the first
 * fails; the one that waited finds its program installed, or installs it then.
 * @param {string} what @param {string[]} packages @param {() => boolean} isPresent
 * @param {typeof aptInstall} [install]
 */
async function ensurePackages(what, packages, isPresent, install = aptInstall) {
	if (isPresent()) return;
	const release = await acquire(path.join(cacheDir(), 'locks', 'apt'), 'system packages');
	try {
		if (!isPresent()) await install(what, packages);
	} finally {
		release();
	}
}

/** n8n's Edit Image node runs GraphicsMagick's `gm`; the A+ examples fit images with it. */
const ensureGraphicsMagick = () =>
	ensurePackages('GraphicsMagick', ['graphicsmagick'], () => onPath('gm'));

module.exports = { onPath, ensurePackages, ensureGraphicsMagick };
