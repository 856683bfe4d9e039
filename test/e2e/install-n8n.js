#!/usr/bin/env node
// @ts-check
'use strict';

// Installs Node (24, or what a pin names) and the pinned n8n versions into a per-user cache, once per machine.
// Usage: node test/e2e/install-n8n.js [version ...]   (default: every pinned version, and beside
// them the machine's packages the suites use, from apt when missing: Chromium, GraphicsMagick,
// Redis, Postgres; so on a fresh machine no suite of the test command waits for apt)

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { NODE_PACKAGE, NODE_VERSION, N8N_PINS, cacheDir, pinFor } = require('./lib/config');
const { run, tail, stopChildrenOnSignal } = require('./lib/proc');
const { info, step, formatBytes, formatDuration } = require('./lib/log');
const { acquire } = require('./lib/lock');
const { cleanEnv } = require('./lib/env');
const { LOADED_MACHINE_MS } = require('./lib/waits');

const MARKER = '.e2e-installed.json';

/**
 * @typedef {{dir: string, home: string, binDir: string, node: string, version: string}} NodeInstall
 * @typedef {{version: string, dir: string, entry: string, node: NodeInstall}} N8nInstall
 */

/** @param {string} dir */
function diskUsage(dir) {
	// `du` is far quicker than walking n8n's ~100k files from JavaScript.
	const { execFileSync } = require('node:child_process');
	try {
		const out = execFileSync('du', ['-sk', dir], { encoding: 'utf8' });
		return Number(out.split(/\s/)[0]) * 1024;
	} catch {
		return NaN;
	}
}

/** @param {string} dir @param {object} spec */
function markerMatches(dir, spec) {
	try {
		const marker = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'));
		return JSON.stringify(marker.spec) === JSON.stringify(spec);
	} catch {
		return false;
	}
}

/** @param {string} dir @param {object} spec @param {number} ms */
function writeMarker(dir, spec, ms) {
	const bytes = diskUsage(dir);
	const marker = {
		spec,
		installSeconds: Math.round(ms / 1000),
		bytes,
		finishedAt: new Date().toISOString(),
	};
	fs.writeFileSync(path.join(dir, MARKER), `${JSON.stringify(marker, null, 2)}\n`);
	return bytes;
}

/**
 * npm run with the install's Node first on PATH, so npm itself, node-gyp and every build script target
 * that Node. `npm_config_nodedir` outranks the user's ~/.npmrc, which may point node-gyp at
 * the headers of another Node.
 * @param {NodeInstall} node
 */
function npmEnv(node) {
	return {
		...cleanEnv(),
		PATH: `${node.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
		npm_config_nodedir: node.home,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		JOBS: String(Math.max(1, os.cpus().length)),
	};
}

/**
 * @param {string} title
 * @param {string[]} args
 * @param {{cwd: string, env: NodeJS.ProcessEnv, logFile: string}} options
 */
async function npm(title, args, options) {
	const s = step(title);
	const result = await run('npm', args, {
		...options,
		label: 'npm',
		echo: 'throttled',
		heartbeatMs: 15000,
	});
	if (result.code !== 0) {
		info(
			`${title} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''}). Last lines:`,
		);
		process.stderr.write(`${tail(result.stdout + result.stderr, 30)}\n`);
		throw new Error(
			`${title} failed; the full log is ${options.logFile}. ` +
				'Check the network reaches the npm registry and that python3, make and a C++ compiler are installed, then run again; ' +
				'a half-finished install is redone from scratch.',
		);
	}
	s.done();
	return result;
}

/** @param {string} pkgDir */
function readPackage(pkgDir) {
	return JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
}

/** @param {string} dir */
function locateNode(dir) {
	const home = path.join(dir, 'node_modules', NODE_PACKAGE);
	const pkg = readPackage(home);
	const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.node;
	const nodePath = path.join(home, rel);
	if (!fs.existsSync(path.join(home, 'include', 'node', 'node.h'))) {
		throw new Error(
			`${NODE_PACKAGE} in ${home} carries no include/node headers; native modules cannot be built`,
		);
	}
	return { dir, home, binDir: path.dirname(nodePath), node: nodePath, version: pkg.version };
}

/**
 * @param {string} [version] Node release, from the npm package that carries its binary and headers
 * @returns {Promise<NodeInstall>}
 */
async function ensureNode(version = NODE_VERSION) {
	const name = `node${version.split('.')[0]}`;
	const dir = path.join(cacheDir(), name);
	const spec = { package: NODE_PACKAGE, version };
	if (markerMatches(dir, spec)) return locateNode(dir);
	const release = await acquire(path.join(cacheDir(), 'locks', name), `Node ${version}`);
	try {
		if (markerMatches(dir, spec)) return locateNode(dir);
		const s = step(`installing Node ${version} (npm package ${NODE_PACKAGE}) into ${dir}`);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			`${JSON.stringify({ name, private: true }, null, 2)}\n`,
		);
		const logFile = path.join(dir, 'install.log');
		await npm(
			`npm install ${NODE_PACKAGE}@${version}`,
			['install', `${NODE_PACKAGE}@${version}`, '--loglevel=http'],
			{
				cwd: dir,
				env: { ...cleanEnv(), npm_config_update_notifier: 'false' },
				logFile,
			},
		);
		const node = locateNode(dir);
		const check = await run(node.node, ['--version']);
		if (check.stdout.trim() !== `v${version}`) {
			throw new Error(
				`${node.node} --version printed "${check.stdout.trim()}${check.stderr.trim()}", expected v${version}`,
			);
		}
		const ms = s.elapsed();
		const bytes = writeMarker(dir, spec, ms);
		s.done(`${formatBytes(bytes)}`);
		return node;
	} finally {
		release();
	}
}

/**
 * Compiles the native modules `names` of the install in `options.cwd` against its Node. An N-API
 * module (sqlite3, which every pin uses in the same release) does not depend on the Node release
 * it was built with: its first build is kept in the cache's `native/` folder and copied into every
 * later install of the same release instead of compiling again.
 * @param {string[]} names
 * @param {{cwd: string, env: NodeJS.ProcessEnv, logFile: string}} options
 */
async function buildNative(names, options) {
	const modules = names.map((name) => {
		const home = path.join(options.cwd, 'node_modules', name);
		const pkg = readPackage(home);
		const kept = path.join(cacheDir(), 'native', `${name}-${pkg.version}-napi`);
		return { name, home, kept: pkg.binary?.napi_versions ? kept : undefined };
	});
	const compile = (/** @type {string[]} */ list) =>
		npm(
			`npm rebuild ${list.join(' ')} (compiling native modules)`,
			['rebuild', ...list, '--foreground-scripts'],
			options,
		);
	const perNode = modules.filter((m) => !m.kept).map((m) => m.name);
	if (perNode.length) await compile(perNode);
	for (const { name, home, kept } of modules) {
		if (!kept) continue;
		const release = await acquire(path.join(cacheDir(), 'locks', path.basename(kept)), name);
		try {
			const built = path.join(home, 'build', 'Release');
			if (fs.existsSync(path.join(kept, MARKER))) {
				info(`${name}: its N-API build from ${kept}, not compiled again`);
			} else {
				await compile([name]);
				fs.rmSync(kept, { recursive: true, force: true });
				fs.mkdirSync(kept, { recursive: true });
				for (const file of fs.readdirSync(built).filter((f) => f.endsWith('.node')))
					fs.copyFileSync(path.join(built, file), path.join(kept, file));
				fs.writeFileSync(path.join(kept, MARKER), `${new Date().toISOString()}\n`);
			}
			fs.mkdirSync(built, { recursive: true });
			for (const file of fs.readdirSync(kept).filter((f) => f.endsWith('.node')))
				fs.copyFileSync(path.join(kept, file), path.join(built, file));
		} finally {
			release();
		}
	}
}

/** @param {string} dir */
function n8nEntry(dir) {
	const home = path.join(dir, 'node_modules', 'n8n');
	const pkg = readPackage(home);
	const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.n8n;
	return path.join(home, rel);
}

/**
 * What an n8n install is made of; what runs on it is not.
 * @param {string} version @param {string} [nodeVersion] the Node it was built for
 */
function n8nSpec(version, nodeVersion) {
	const pin = pinFor(version);
	return {
		version: pin.version,
		overrides: pin.overrides,
		rebuild: pin.rebuild,
		node: nodeVersion ?? pin.node ?? NODE_VERSION,
	};
}

/**
 * Whether n8n `version` and its Node are installed, without waiting for an install under way.
 * @param {string} version
 */
function isInstalled(version) {
	const nodeVersion = pinFor(version).node ?? NODE_VERSION;
	return (
		markerMatches(path.join(cacheDir(), `node${nodeVersion.split('.')[0]}`), {
			package: NODE_PACKAGE,
			version: nodeVersion,
		}) && markerMatches(path.join(cacheDir(), `n8n-${version}`), n8nSpec(version))
	);
}

/**
 * @param {string} version
 * @param {NodeInstall} [node]
 * @returns {Promise<N8nInstall>}
 */
async function ensureN8n(version, node) {
	const pin = pinFor(version);
	node = pin.node ? await ensureNode(pin.node) : (node ?? (await ensureNode()));
	const dir = path.join(cacheDir(), `n8n-${version}`);
	const spec = n8nSpec(version, node.version);
	if (markerMatches(dir, spec)) return { version, dir, entry: n8nEntry(dir), node };
	const release = await acquire(path.join(cacheDir(), 'locks', `n8n-${version}`), `n8n ${version}`);
	try {
		if (markerMatches(dir, spec)) return { version, dir, entry: n8nEntry(dir), node };
		const s = step(
			`installing n8n ${version} into ${dir} (first time only: takes several minutes)`,
		);
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		const manifest = {
			name: `n8n-${version}`,
			private: true,
			dependencies: { n8n: version },
			overrides: pin.overrides,
		};
		fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
		const logFile = path.join(dir, 'install.log');
		const env = npmEnv(node);
		// Scripts stay off for the bulk install: several dependencies try to download
		// prebuilt binaries from outside the registry. The native modules n8n needs are then
		// compiled from source against the pin's Node headers.
		// --prefer-offline: a redo after a failed attempt reuses what npm's cache already holds.
		await npm(
			`npm install n8n@${version}`,
			[
				'install',
				'--ignore-scripts',
				'--prefer-offline',
				'--no-audit',
				'--no-fund',
				'--loglevel=http',
			],
			{
				cwd: dir,
				env,
				logFile,
			},
		);
		await buildNative(pin.rebuild, { cwd: dir, env, logFile });
		const entry = n8nEntry(dir);
		const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-version-'));
		const check = await run(node.node, [entry, '--version'], {
			env: { ...cleanEnv(), N8N_USER_FOLDER: scratch, N8N_DIAGNOSTICS_ENABLED: 'false' },
			timeoutMs: LOADED_MACHINE_MS,
		});
		fs.rmSync(scratch, { recursive: true, force: true });
		if (!check.stdout.includes(version)) {
			throw new Error(
				`n8n ${version} was installed but "n8n --version" printed:\n${tail(check.stdout + check.stderr, 20)}\n` +
					`Delete ${dir} and run again.`,
			);
		}
		const ms = s.elapsed();
		const bytes = writeMarker(dir, spec, ms);
		s.done(`${formatBytes(bytes)} on disk`);
		return { version, dir, entry, node };
	} finally {
		release();
	}
}

/**
 * @param {string[]} versions
 * @returns {Promise<{node: NodeInstall, n8n: Record<string, N8nInstall>}>}
 */
async function ensureInstalled(versions) {
	const node = await ensureNode();
	// Side by side: the downloads overlap, and a pin's install never waits for another's.
	const installed = await Promise.all(versions.map((version) => ensureN8n(version, node)));
	return { node, n8n: Object.fromEntries(installed.map((install) => [install.version, install])) };
}

module.exports = { ensureNode, ensureN8n, ensureInstalled, isInstalled, npmEnv, MARKER };

/** What the suites take from the machine's packages; each suite still checks its own before use. */
function ensureSuitePackages() {
	const { ensureChromium } = require('./lib/browser');
	const { ensureGraphicsMagick } = require('./lib/system-packages');
	const { ensureServers } = require('../queue/lib/system-packages');
	return Promise.all([ensureChromium(), ensureGraphicsMagick(), ensureServers()]);
}

if (require.main === module) {
	stopChildrenOnSignal();
	const named = process.argv.slice(2);
	const versions = named.length ? named : N8N_PINS.map((p) => p.version);
	const started = Date.now();
	info(`cache: ${cacheDir()} (set PRODUCT_IMAGE_E2E_CACHE to use another folder)`);
	Promise.all([ensureInstalled(versions), named.length ? undefined : ensureSuitePackages()]).then(
		([{ node, n8n }]) => {
			info(`Node ${node.version}: ${node.node}`);
			for (const v of Object.values(n8n)) {
				const marker = JSON.parse(fs.readFileSync(path.join(v.dir, MARKER), 'utf8'));
				info(
					`n8n ${v.version}: ${v.dir} (${formatBytes(marker.bytes)}, installed in ${formatDuration(marker.installSeconds * 1000)})`,
				);
			}
			info(`ready in ${formatDuration(Date.now() - started)}`);
		},
		(err) => {
			info(`install failed: ${err instanceof Error ? err.message : String(err)}`);
			process.exitCode = 1;
		},
	);
}
