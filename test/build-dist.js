// @ts-check
'use strict';

// jest globalSetup. The engine tests load the package from dist/ the way n8n loads it, so a
// source edit must reach dist/ before they run. The stamp holds the sources' contents and
// dist/'s files (name, size, time) as this setup last built them: any edit, and any build from
// other sources since (a build between `git stash` and `git stash pop`), makes it differ and
// brings a build. An unchanged tree costs ~50 ms.

const crypto = require('node:crypto');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const INPUT_DIRS = ['nodes', 'credentials'];
const INPUT_FILES = ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'gulpfile.js'];
// Outside dist/, which is what npm packs.
const STAMP = path.join(ROOT, 'node_modules', '.cache', 'product-image-dist.sha256');

/** The files n8n loads, as package.json lists them: without them there is nothing to test. */
function builtEntriesExist() {
	const { n8n } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	return [...n8n.nodes, ...n8n.credentials].every((file) => fs.existsSync(path.join(ROOT, file)));
}

/** @param {string} dir @returns {string[]} */
function filesBelow(dir) {
	if (!fs.existsSync(dir)) return [];
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		return entry.isDirectory() ? filesBelow(full) : [full];
	});
}

function sourcesFingerprint() {
	const files = [
		...INPUT_DIRS.flatMap((d) => filesBelow(path.join(ROOT, d))),
		...INPUT_FILES.map((f) => path.join(ROOT, f)),
	].sort();
	const hash = crypto.createHash('sha256');
	for (const file of files) {
		hash.update(path.relative(ROOT, file)).update('\0');
		if (fs.existsSync(file)) hash.update(fs.readFileSync(file));
		hash.update('\0');
	}
	return hash.digest('hex');
}

function distFingerprint() {
	const hash = crypto.createHash('sha256');
	for (const file of filesBelow(path.join(ROOT, 'dist')).sort()) {
		const { size, mtimeMs } = fs.statSync(file);
		hash.update(`${path.relative(ROOT, file)}\0${size}\0${mtimeMs}\0`);
	}
	return hash.digest('hex');
}

module.exports = async function buildDist() {
	// Under `npm run mutation` Stryker's build command has built dist/ from the mutated sources in
	// its sandbox, whose node_modules (and this stamp) is the project's own: leave both alone.
	if (process.env.STRYKER_MUTATOR_WORKER !== undefined) return;
	// `npm test` built dist/ from this tree as its first step (scripts/test.js).
	if (process.env.PRODUCT_IMAGE_E2E_SKIP_BUILD === '1' && builtEntriesExist()) return;
	const sources = sourcesFingerprint();
	if (
		builtEntriesExist() &&
		fs.existsSync(STAMP) &&
		fs.readFileSync(STAMP, 'utf8') === `${sources} ${distFingerprint()}`
	)
		return;
	const started = Date.now();
	const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, encoding: 'utf8' });
	if (result.status !== 0) {
		throw new Error(
			`npm run build failed before the tests (exit ${result.status}):\n${result.stdout}${result.stderr}`,
		);
	}
	fs.mkdirSync(path.dirname(STAMP), { recursive: true });
	fs.writeFileSync(STAMP, `${sources} ${distFingerprint()}`);
	process.stdout.write(
		`\nbuilt dist/ from the changed sources in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
	);
};
