#!/usr/bin/env node
// What n8n's registry asks of a release, checked before one is made: the GitHub workflows are
// valid (action-validator, a real workflow linter) and publish with npm provenance from CI, and
// the tarball `npm pack` builds holds the built node and nothing else.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const problems = [];

const WORKFLOWS = {
	'.github/workflows/ci.yml': [
		[/^\s*pull_request:/m, 'runs on pull requests'],
		[/^\s*push:/m, 'runs on pushes'],
		[/run: bash \.ci\/run\s*$/m, 'runs the test command exactly as .ci/run'],
	],
	'.github/workflows/publish.yml': [
		[/tags: \['v\*'\]/, 'runs on version tags v*'],
		[/^\s*id-token: write\s*$/m, 'grants id-token: write (npm provenance)'],
		[/^\s*- run: npm test\s*$/m, 'runs the test command before publishing'],
		[/npm publish --provenance --access public/, 'publishes with --provenance --access public'],
		[/NODE_AUTH_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/, 'takes the npm token from a secret'],
	],
};

const validator = path.join(root, 'node_modules', '.bin', 'action-validator');
for (const [file, rules] of Object.entries(WORKFLOWS)) {
	const full = path.join(root, file);
	if (!fs.existsSync(full)) {
		problems.push(`${file} is missing`);
		continue;
	}
	const lint = spawnSync(validator, [full], { encoding: 'utf8' });
	if (lint.status !== 0) problems.push(`${file} is not a valid GitHub workflow:\n${lint.stdout}${lint.stderr}`);
	const text = fs.readFileSync(full, 'utf8');
	for (const [pattern, what] of rules) if (!pattern.test(text)) problems.push(`${file} must say that it ${what}`);
}

// Documentation links lead to the repository package.json names, where the README lives.
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const repository = String(manifest.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
const links = [
	...JSON.stringify(JSON.parse(fs.readFileSync(path.join(root, 'nodes/ProductImage/ProductImage.node.json'), 'utf8'))).matchAll(/"url":"([^"]+)"/g),
	...fs.readFileSync(path.join(root, 'credentials/ProductImageApi.credentials.ts'), 'utf8').matchAll(/documentationUrl = '([^']+)'/g),
].map((match) => match[1]);
if (!repository || links.length < 3) problems.push('the codex and the credential must carry documentation links');
for (const link of links) if (!link.startsWith(`${repository}#`)) problems.push(`documentation link ${link} is not in ${repository}`);

// The README's pictures are in the repository (npm shows them from there), and every picture in
// docs/ is shown: a renamed shot would otherwise leave a broken image or a stale file.
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const pictures = [...readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((match) => match[1]).filter((link) => !/^https?:/.test(link));
for (const picture of pictures) if (!fs.existsSync(path.join(root, picture))) problems.push(`the README shows ${picture}, which is not in the repository`);
const docs = path.join(root, 'docs');
for (const file of fs.existsSync(docs) ? fs.readdirSync(docs).filter((f) => f.endsWith('.png')) : []) {
	if (!pictures.includes(`docs/${file}`)) problems.push(`docs/${file} is not shown in the README`);
}

// Only the built node, its icons and codex, and the documents n8n's verification reads.
const ALLOWED = [/^dist\/.+\.(js|svg|json)$/, /^README\.md$/, /^LICENSE$/, /^package\.json$/, /^index\.js$/];
const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
if (pack.status !== 0) {
	problems.push(`npm pack --dry-run failed:\n${pack.stderr}`);
} else {
	const files = JSON.parse(pack.stdout)[0].files.map((file) => file.path);
	const stray = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
	if (stray.length) problems.push(`the tarball holds files that are not the built node: ${stray.join(', ')}`);
	for (const needed of ['dist/nodes/ProductImage/ProductImage.node.js', 'dist/credentials/ProductImageApi.credentials.js', 'README.md', 'LICENSE']) {
		if (!files.includes(needed)) problems.push(`the tarball lacks ${needed}`);
	}
	if (!problems.length) process.stdout.write(`tarball: ${files.length} files, all built output or documents\n`);
}

if (problems.length) {
	process.stdout.write(`release checks failed:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
	process.exit(1);
}
process.stdout.write(`release checks: ${Object.keys(WORKFLOWS).length} workflows valid and publishing with provenance\n`);
