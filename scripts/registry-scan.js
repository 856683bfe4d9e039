#!/usr/bin/env node
// n8n's registry scanner, run offline the way the registry runs it before listing a package:
// `@n8n/scan-community-package` lints the provenance-attested source and the published tarball.
// It is installed once into the project's cache folder (beside the n8n installs); its pinned
// TypeScript 7 breaks @typescript-eslint, so TypeScript 5.9 goes in beside it, and one rule needs
// n8n-workflow.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const { cacheDir } = require('../test/e2e/lib/config');
const { acquire } = require('../test/e2e/lib/lock');

const SCANNER = '@n8n/scan-community-package@0.32.0';
const EXTRA = ['typescript@5.9.3', 'n8n-workflow@2.41.0'];
const root = path.resolve(__dirname, '..');
const home = path.join(cacheDir(), 'scan-community-package-0.32.0');
const marker = path.join(home, '.installed');

function npm(args, cwd) {
	const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd,
		encoding: 'utf8',
	});
	if (result.status !== 0)
		throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${result.stderr}`);
	return result.stdout;
}

/** tar, failing loudly: an archive that did not unpack leaves nothing to scan, and a scan of nothing passes. */
function untar(args, cwd) {
	const result = spawnSync('tar', args, { cwd, encoding: 'utf8' });
	if (result.status !== 0)
		throw new Error(
			`tar ${args.join(' ')} failed in ${cwd} (exit ${result.status}):\n${result.stderr}`,
		);
}

async function install() {
	if (fs.existsSync(marker)) return;
	const release = await acquire(
		path.join(cacheDir(), 'locks', 'scan-community-package'),
		'the registry scanner install',
	);
	try {
		if (fs.existsSync(marker)) return;
		const started = Date.now();
		process.stdout.write(`installing ${SCANNER} into ${home} (once per machine) ...\n`);
		fs.rmSync(home, { recursive: true, force: true });
		fs.mkdirSync(home, { recursive: true });
		const tarball = npm(['pack', SCANNER, '--silent'], home).trim().split('\n').pop();
		untar(['xzf', tarball, '--strip-components=1'], home);
		const flags = ['--omit=dev', '--ignore-scripts', '--legacy-peer-deps'];
		npm(['install', ...flags], home);
		npm(['install', ...flags, '--no-save', ...EXTRA], home);
		fs.writeFileSync(marker, new Date().toISOString());
		process.stdout.write(`installed in ${Math.round((Date.now() - started) / 1000)} s\n`);
	} finally {
		release();
	}
}

/** The tarball as the registry serves it, unpacked (dist/ must be built). */
function unpackedTarball() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'product-image-scan-'));
	const name = npm(['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], root)
		.trim()
		.split('\n')
		.pop();
	untar(['xzf', path.join(dir, name), '-C', dir], dir);
	const packageDir = path.join(dir, 'package');
	// The files n8n loads must be in what is scanned, or the tarball leg lints an empty package.
	const { n8n } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	const missing = [...n8n.nodes, ...n8n.credentials].filter(
		(file) => !fs.existsSync(path.join(packageDir, file)),
	);
	if (missing.length > 0)
		throw new Error(`the packed tarball lacks ${missing.join(', ')} (run npm run build first)`);
	return { dir, packageDir };
}

async function main() {
	await install();
	const scanner = await import(pathToFileURL(path.join(home, 'scanner', 'scanner.mjs')).href);
	const tarball = unpackedTarball();
	let failed = false;
	try {
		const legs = [
			['source', root, scanner.SOURCE_FILE_PATTERNS],
			['tarball', tarball.packageDir, ['**/*.js', 'package.json']],
		];
		for (const [leg, dir, patterns] of legs) {
			const result = await scanner.analyzePackage(dir, patterns);
			// The scanner passes a leg it found no files in ("No files found to analyze"): a pass
			// that says anything at all linted nothing, and counts as a failure here.
			const passed = result.passed && !result.message;
			process.stdout.write(`${leg}: ${passed ? 'passed' : `FAILED: ${result.message}`}\n`);
			if (!passed) {
				failed = true;
				if (result.details) process.stdout.write(`${result.details}\n`);
			}
		}
	} finally {
		fs.rmSync(tarball.dir, { recursive: true, force: true });
	}
	if (failed) process.exit(1);
}

main().catch((error) => {
	process.stderr.write(`registry scan: ${error.message}\n`);
	process.exit(1);
});
