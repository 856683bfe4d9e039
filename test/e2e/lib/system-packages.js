// @ts-check
'use strict';

// Programs the suites need from the machine's Debian packages: a fresh CI machine gets them from
// apt. Nothing here starts a system service.

const fs = require('node:fs');
const path = require('node:path');
const { run, tail } = require('./proc');
const { step } = require('./log');

/** @param {string} name */
function onPath(name) {
	return (process.env.PATH ?? '')
		.split(path.delimiter)
		.some((dir) => dir && fs.existsSync(path.join(dir, name)));
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
	// Another install on the machine holds dpkg's lock for a while; waiting beats failing.
	const lock = ['-o', 'DPkg::Lock::Timeout=600'];
	const update = await run('apt-get', [...lock, 'update'], {
		env,
		label: 'apt-get update',
		echo: 'throttled',
	});
	if (update.code !== 0)
		throw new Error(
			`${what} could not be installed: apt-get update failed (exit ${update.code}):\n${tail(update.stdout + update.stderr, 15)}`,
		);
	const install = await run(
		'apt-get',
		[...lock, 'install', '-y', '--no-install-recommends', ...packages],
		{ env, label: 'apt-get install', echo: 'throttled' },
	);
	if (install.code !== 0)
		throw new Error(
			`${what} could not be installed: apt-get install ${packages.join(' ')} failed (exit ${install.code}):\n${tail(install.stdout + install.stderr, 15)}`,
		);
	s.done();
}

/** n8n's Edit Image node runs GraphicsMagick's `gm`; the A+ examples fit images with it. */
async function ensureGraphicsMagick() {
	if (!onPath('gm')) await aptInstall('GraphicsMagick', ['graphicsmagick']);
}

module.exports = { onPath, aptInstall, ensureGraphicsMagick };
