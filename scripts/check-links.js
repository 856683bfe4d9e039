#!/usr/bin/env node
// Every relative link and #anchor in README.md and docs/*.md leads somewhere: the file or folder
// exists, and an anchor names a heading of the page it points to, computed the way GitHub makes
// heading ids. A page moved or a heading reworded would otherwise leave the reader at the top of
// a page, or at a 404, with nothing failing. Addresses with a scheme (https:, mailto:) are not
// fetched: the test command stays offline.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** The pages checked: the README and every page under docs/. */
function pages() {
	const docs = path.join(root, 'docs');
	const inDocs = fs.existsSync(docs)
		? fs
				.readdirSync(docs)
				.filter((f) => f.endsWith('.md'))
				.map((f) => path.join(docs, f))
		: [];
	return [path.join(root, 'README.md'), ...inDocs];
}

/** The text a reader sees: fenced blocks, inline code and HTML comments hold no links. */
function visibleText(markdown) {
	return markdown
		.replace(/<!--[\s\S]*?-->/g, '')
		.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
		.replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading id: lower case, punctuation dropped (hyphens and underscores kept), spaces to hyphens. */
function slug(heading) {
	return heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.replace(/`/g, '')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors a page offers: one per heading, repeats numbered -1, -2 as GitHub does. */
const anchorCache = new Map();
function anchors(file) {
	if (anchorCache.has(file)) return anchorCache.get(file);
	const seen = new Map();
	const ids = new Set();
	const text = fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
	for (const match of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
		const base = slug(match[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		ids.add(count === 0 ? base : `${base}-${count}`);
	}
	anchorCache.set(file, ids);
	return ids;
}

/** Inline links and images: [text](target) and ![alt](target "title"), targets in <…> included. */
function links(markdown) {
	const found = [];
	for (const match of visibleText(markdown).matchAll(
		/!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)/g,
	)) {
		found.push(match[1].replace(/^<|>$/g, ''));
	}
	return found;
}

function check() {
	const problems = [];
	let checked = 0;
	for (const page of pages()) {
		const name = path.relative(root, page);
		for (const target of links(fs.readFileSync(page, 'utf8'))) {
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
			checked += 1;
			const hash = target.indexOf('#');
			const file = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
			const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
			const resolved = file === '' ? page : path.resolve(path.dirname(page), file);
			if (!resolved.startsWith(root + path.sep) && resolved !== root) {
				problems.push(`${name}: ${target} leads out of the repository`);
				continue;
			}
			if (!fs.existsSync(resolved)) {
				problems.push(
					`${name}: ${target} leads to ${path.relative(root, resolved)}, which does not exist`,
				);
				continue;
			}
			if (anchor === undefined) continue;
			if (!resolved.endsWith('.md')) {
				problems.push(
					`${name}: ${target} has an anchor, but ${path.relative(root, resolved)} is not a page with headings`,
				);
			} else if (!anchors(resolved).has(anchor)) {
				problems.push(
					`${name}: ${target} names #${anchor}, which is no heading of ${path.relative(root, resolved)}`,
				);
			}
		}
	}
	return { problems, checked };
}

const { problems, checked } = check();
if (problems.length) {
	process.stdout.write(`link check failed:\n${problems.map((p) => `- ${p}`).join('\n')}\n`);
	process.exit(1);
}
process.stdout.write(
	`links: ${checked} relative links and anchors in ${pages().length} pages, each leads somewhere\n`,
);
