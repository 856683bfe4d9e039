// @ts-check
'use strict';

// Packs the built package and installs the tarball into an n8n user folder the way n8n's
// community-packages service does, so the suite runs exactly what npm users would get and
// nothing from the source tree.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { REPO_ROOT } = require('./lib/config');
const { run, tail } = require('./lib/proc');
const { cleanEnv } = require('./lib/env');
const { step } = require('./lib/log');

const PACKAGE_NAME = 'n8n-nodes-product-image';

/** @param {import('./install-n8n').NodeInstall} node */
function envWith(node) {
	return {
		...cleanEnv(),
		PATH: `${node.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_update_notifier: 'false',
	};
}

/**
 * @param {string} what
 * @param {import('./lib/proc').RunResult} result
 */
function ensureOk(what, result) {
	if (result.code === 0) return;
	throw new Error(
		`${what} failed (exit ${result.code}):\n${tail(result.stdout + result.stderr, 25)}`,
	);
}

/** @param {string} command @param {string[]} args @param {string} cwd */
async function runScript(command, args, cwd) {
	const result = await run(command, args, {
		cwd,
		env: cleanEnv(),
		label: command,
		echo: 'throttled',
	});
	ensureOk(`${command} ${args.join(' ')}`, result);
}

/** `npm run build` in the repo: the package's files come only from its build. */
async function build() {
	const s = step('building the package (npm run build)');
	await runScript('npm', ['run', 'build'], REPO_ROOT);
	s.done();
}

/**
 * @param {{node: import('./install-n8n').NodeInstall, destination?: string}} options
 * @returns {Promise<string>} the tarball's path
 */
async function pack({ node, destination }) {
	const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8'));
	const missing = [...(manifest.n8n?.nodes ?? []), ...(manifest.n8n?.credentials ?? [])].filter(
		(/** @type {string} */ f) => !fs.existsSync(path.join(REPO_ROOT, f)),
	);
	if (missing.length) {
		throw new Error(
			`the package is not built (missing ${missing.join(', ')}): run \`npm run build\` first`,
		);
	}
	const dest = destination ?? fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-pack-'));
	fs.mkdirSync(dest, { recursive: true });
	const s = step('packing the package (npm pack)');
	const result = await run('npm', ['pack', '--json', `--pack-destination=${dest}`], {
		cwd: REPO_ROOT,
		env: envWith(node),
	});
	ensureOk('npm pack', result);
	const jsonStart = result.stdout.indexOf('[');
	const [info] = JSON.parse(result.stdout.slice(jsonStart));
	const tarball = path.join(dest, info.filename);
	s.done(`${info.filename}, ${info.entryCount} files, ${info.size} bytes`);
	return tarball;
}

/**
 * The steps of n8n's community-packages service (`downloadPackage`, the same in 1.123 and
 * 2.41): unpack the tarball into `nodes/node_modules/<name>`, drop dev, peer and optional
 * dependencies from its package.json, run `npm install` inside it for the runtime
 * dependencies, and record it in `nodes/package.json`. n8n-workflow then comes from n8n
 * itself, as it does for users, not from a copy beside the package.
 * @param {{node: import('./install-n8n').NodeInstall, userFolder: string, tarball: string}} options
 * @returns {Promise<string>} the installed package's folder
 */
async function installPackage({ node, userFolder, tarball }) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(nodesDir, { recursive: true });
	const manifestFile = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(manifestFile)) {
		fs.writeFileSync(
			manifestFile,
			JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2),
		);
	}
	const s = step(`installing ${path.basename(tarball)} into ${nodesDir}`);
	const packageDir = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(packageDir, { recursive: true, force: true });
	fs.mkdirSync(packageDir, { recursive: true });
	ensureOk(
		'unpacking the tarball',
		await run('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']),
	);

	const packageJsonFile = path.join(packageDir, 'package.json');
	const { devDependencies, peerDependencies, optionalDependencies, ...packageJson } = JSON.parse(
		fs.readFileSync(packageJsonFile, 'utf8'),
	);
	fs.writeFileSync(packageJsonFile, JSON.stringify(packageJson, null, 2), 'utf8');

	const args = [
		'install',
		'--audit=false',
		'--fund=false',
		'--bin-links=false',
		'--install-strategy=shallow',
		'--ignore-scripts=true',
		'--package-lock=false',
	];
	ensureOk(
		'npm install in the unpacked package',
		await run('npm', args, {
			cwd: packageDir,
			env: envWith(node),
			label: 'npm',
			echo: 'throttled',
		}),
	);

	const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
	manifest.dependencies = { ...(manifest.dependencies ?? {}), [PACKAGE_NAME]: packageJson.version };
	fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2), 'utf8');
	s.done();
	return packageDir;
}

module.exports = { PACKAGE_NAME, build, pack, installPackage };
