#!/usr/bin/env node
// What n8n's registry asks of a release, checked before one is made: the GitHub workflows are
// valid (action-validator, a real workflow linter) and publish through n8n-node release with npm
// provenance from CI, authenticated by trusted publishing rather than a stored token, on a tag that
// names package.json's version, whose changelog section exists and holds nothing pending; the lint is
// n8n-node lint with n8n's default config; the node's documentation links and the pictures of the
// README and docs/ are in the repository; and the tarball `npm pack` builds holds the built node
// and nothing else.
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
		[/^\s*id-token: write\s*$/m, 'grants id-token: write (trusted publishing and provenance)'],
		[
			/^\s*- run: npm test\s*$[\s\S]*^\s*npx n8n-node release\s*$/m,
			'runs the test command (build, n8n-node lint, the suites), then publishes with n8n-node release',
		],
		[
			/npx n8n-node release\s*\n\s*env:(?:\n\s+.*)*?\n\s+NPM_CONFIG_PROVENANCE: 'true'/,
			"sets NPM_CONFIG_PROVENANCE: 'true' on the release step (provenance not left to the tool alone)",
		],
		[/11\.5\.1/, 'checks that its npm is 11.5.1 or newer, the first that publishes by OIDC'],
		[
			/if \[ -n "\$NPM_TOKEN" \]; then npm config set/,
			'uses a token only when the NPM_TOKEN secret is set',
		],
		[
			/NPM_TOKEN: \$\{\{ secrets\.NPM_TOKEN \}\}/,
			'takes the fallback token from a secret, never from the file',
		],
		[
			/test "\$GITHUB_REF_NAME" = "v\$version"[\s\S]*^\s*- run: npm ci\s*$/m,
			"checks, before anything is installed, that the tag is v followed by package.json's version",
		],
		[
			/grep -qF "## \[\$version\] - " CHANGELOG\.md[\s\S]*^\s*- run: npm ci\s*$/m,
			"checks, before anything is installed, that CHANGELOG.md has the version's section",
		],
	],
};
// A changelog section may hold a marked place for entries of work not yet merged; a release must
// not go out with one.
const PENDING_MARKER = '<!-- PENDING';
// Trusted publishing needs npm 11.5.1 or newer, which Node 24 bundles; a token configured for the
// registry (NODE_AUTH_TOKEN, or the placeholder setup-node writes for a registry-url) can stand in
// the way of the OIDC exchange.
const PUBLISH_FORBIDDEN = [
	[
		/NODE_AUTH_TOKEN/,
		'sets NODE_AUTH_TOKEN: a configured token can stand in the way of trusted publishing',
	],
	[
		/^\s*registry-url:/m,
		'gives setup-node a registry-url: the placeholder token it configures can stand in the way of trusted publishing',
	],
	[
		/^\s*(?:- )?(?:run: )?npm publish\b/m,
		'runs npm publish itself: publishing goes through n8n-node release, which lints and builds first',
	],
];
const PUBLISH_NODE_MAJOR = 24;

const validator = path.join(root, 'node_modules', '.bin', 'action-validator');
for (const [file, rules] of Object.entries(WORKFLOWS)) {
	const full = path.join(root, file);
	if (!fs.existsSync(full)) {
		problems.push(`${file} is missing`);
		continue;
	}
	const lint = spawnSync(validator, [full], { encoding: 'utf8' });
	if (lint.status !== 0)
		problems.push(`${file} is not a valid GitHub workflow:\n${lint.stdout}${lint.stderr}`);
	const text = fs.readFileSync(full, 'utf8');
	for (const [pattern, what] of rules)
		if (!pattern.test(text)) problems.push(`${file} must say that it ${what}`);
	if (file.endsWith('publish.yml')) {
		if (!text.includes(`if grep -qF '${PENDING_MARKER}' CHANGELOG.md; then`))
			problems.push(
				`${file} must refuse a release while CHANGELOG.md holds the marker ${PENDING_MARKER}`,
			);
		for (const [pattern, what] of PUBLISH_FORBIDDEN)
			if (pattern.test(text)) problems.push(`${file} ${what}`);
		const nodes = [...text.matchAll(/node-version: '?(\d+)/g)].map((match) => Number(match[1]));
		if (!nodes.length || nodes.some((major) => major < PUBLISH_NODE_MAJOR))
			problems.push(
				`${file} must publish on Node ${PUBLISH_NODE_MAJOR} or newer (npm 11.5.1+), not ${nodes.join(', ') || 'an unnamed version'}`,
			);
	}
	if (file.endsWith('ci.yml')) {
		// CI covers the oldest Node the package promises in engines.
		const floor = /^>=\s*(\d+(?:\.\d+)?)/.exec(
			String(
				JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines?.node ?? '',
			),
		)?.[1];
		if (!floor)
			problems.push('package.json must name the oldest Node it supports (engines.node ">=x.y")');
		else if (!new RegExp(`['"]${floor.replace('.', '\\.')}['"]`).test(text))
			problems.push(`${file} must run on Node ${floor}, the oldest in package.json's engines`);
	}
}

// n8n's own tooling does the lint and the publish: `npm run lint` is n8n-node lint on the package's
// sources with the default config, held to it by strict mode, and the pinned @n8n/node-cli's release
// command, in GitHub Actions, lints, builds, then publishes with provenance. A new @n8n/node-cli
// that changes either is caught here, before a tag publishes with it.
const cli = path.join(root, 'node_modules', '@n8n', 'node-cli', 'dist');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
if (pkg.scripts?.lint !== 'node scripts/n8n-node-lint.js')
	problems.push("package.json's lint script must be node scripts/n8n-node-lint.js (n8n-node lint)");
if (pkg.n8n?.strict !== true)
	problems.push(
		'package.json must set n8n.strict: n8n-node lint checks the default config only then',
	);
const normalized = (file) => fs.readFileSync(file, 'utf8').replace(/\s+/g, ' ').trim();
if (
	normalized(path.join(root, 'eslint.config.mjs')) !==
	normalized(path.join(cli, 'template/templates/shared/default/eslint.config.mjs'))
)
	problems.push("eslint.config.mjs must be n8n-node's default config, unmodified");
const releaseInCI = /if \(isCI\) \{([\s\S]*?)\n\s*return;/.exec(
	fs.readFileSync(path.join(cli, 'commands/release.js'), 'utf8'),
)?.[1];
if (
	!releaseInCI ||
	!/\['run', 'lint'\][\s\S]*\['run', 'build'\][\s\S]*\['publish'\][\s\S]*NPM_CONFIG_PROVENANCE: 'true'/.test(
		releaseInCI,
	)
)
	problems.push(
		"the installed @n8n/node-cli's release command no longer lints, builds, then publishes with NPM_CONFIG_PROVENANCE in GitHub Actions: read it before adopting it",
	);

// The version package.json names has its dated section in the changelog, the one the publish
// workflow looks for on a tag; entries still pending are allowed until the tag.
const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
const section = new RegExp(
	`^## \\[${String(pkg.version).replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`,
	'm',
);
if (!section.test(changelog))
	problems.push(
		`CHANGELOG.md must have a section "## [${pkg.version}] - YYYY-MM-DD" for package.json's version`,
	);
const pending = changelog.split('\n').filter((line) => line.includes(PENDING_MARKER)).length;

// Documentation links lead to a page of the repository package.json names, and to no anchor: n8n
// appends its own ?utm_… query to the address, which lands after a #anchor and breaks it.
const repository = String(pkg.repository?.url ?? '')
	.replace(/^git\+/, '')
	.replace(/\.git$/, '');
const links = [
	...JSON.stringify(
		JSON.parse(
			fs.readFileSync(path.join(root, 'nodes/ProductImage/ProductImage.node.json'), 'utf8'),
		),
	).matchAll(/"url":"([^"]+)"/g),
	...fs
		.readFileSync(path.join(root, 'credentials/ProductImageApi.credentials.ts'), 'utf8')
		.matchAll(/documentationUrl\s*=\s*'([^']+)'/g),
].map((match) => match[1]);
if (!repository || links.length < 3)
	problems.push('the codex and the credential must carry documentation links');
for (const link of links) {
	const page = link.startsWith(`${repository}/blob/main/`)
		? link.slice(`${repository}/blob/main/`.length)
		: undefined;
	if (page === undefined)
		problems.push(
			`documentation link ${link} is not a page of ${repository} (${repository}/blob/main/…)`,
		);
	else if (/[#?]/.test(page))
		problems.push(
			`documentation link ${link} carries an anchor or a query, which n8n's own query breaks`,
		);
	else if (!page.endsWith('.md') || !fs.existsSync(path.join(root, page)))
		problems.push(
			`documentation link ${link} names ${page}, which is not a page in the repository`,
		);
}

// The pictures the README and docs/*.md show are in the repository (npm and GitHub show them from
// there), and every picture in docs/ is shown: a renamed shot would otherwise leave a broken image
// or a stale file.
const docs = path.join(root, 'docs');
const pages = [
	'README.md',
	...(fs.existsSync(docs)
		? fs
				.readdirSync(docs)
				.filter((f) => f.endsWith('.md'))
				.map((f) => `docs/${f}`)
		: []),
];
const shown = new Set();
for (const page of pages) {
	const text = fs.readFileSync(path.join(root, page), 'utf8');
	for (const [, link] of text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
		if (/^https?:/.test(link)) continue;
		const picture = path.relative(root, path.resolve(root, path.dirname(page), link));
		if (!fs.existsSync(path.join(root, picture)))
			problems.push(`${page} shows ${link}, which is not in the repository`);
		shown.add(picture.split(path.sep).join('/'));
	}
}
for (const file of fs.existsSync(docs)
	? fs.readdirSync(docs).filter((f) => f.endsWith('.png'))
	: []) {
	if (!shown.has(`docs/${file}`))
		problems.push(`docs/${file} is not shown in the README or a docs/*.md page`);
}

// Only the built node, its icons and codex, and the documents n8n's verification reads.
const ALLOWED = [
	/^dist\/.+\.(js|svg|json)$/,
	/^README\.md$/,
	/^LICENSE$/,
	/^package\.json$/,
	/^index\.js$/,
];
const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
	cwd: root,
	encoding: 'utf8',
});
if (pack.status !== 0) {
	problems.push(`npm pack --dry-run failed:\n${pack.stderr}`);
} else {
	const files = JSON.parse(pack.stdout)[0].files.map((file) => file.path);
	const stray = files.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
	if (stray.length)
		problems.push(`the tarball holds files that are not the built node: ${stray.join(', ')}`);
	for (const needed of [
		'dist/nodes/ProductImage/ProductImage.node.js',
		'dist/credentials/ProductImageApi.credentials.js',
		'README.md',
		'LICENSE',
	]) {
		if (!files.includes(needed)) problems.push(`the tarball lacks ${needed}`);
	}
	if (!problems.length)
		process.stdout.write(`tarball: ${files.length} files, all built output or documents\n`);
}

if (problems.length) {
	process.stdout.write(`release checks failed:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
	process.exit(1);
}
process.stdout.write(
	`release checks: ${Object.keys(WORKFLOWS).length} workflows valid, publishing through n8n-node release with provenance by trusted publishing on a tag that names package.json's version ${pkg.version}; CHANGELOG.md has its section${pending ? ` (${pending} place${pending === 1 ? '' : 's'} marked pending, which a tag refuses)` : ''}; eslint.config.mjs is n8n-node's default; ${links.length} documentation links and ${shown.size} pictures in the repository\n`,
);
