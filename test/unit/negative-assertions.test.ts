import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

import { TEST_API_KEY } from '../harness/simulator';

// A test that asserts a text is absent guards only if something could print that text: the node
// (nodes/, credentials/) or, for its replies, the simulator (test/simulator/). A text nothing can
// print (an operation's old name, a typo) makes an assertion that can never fail. Every literal
// of a `.not.toContain`, `.not.toMatch`, `expect.not.stringContaining` or
// `expect.not.stringMatching` in the suites is held against the string literals of those folders,
// or is one of the artefacts below, which a slip prints without any source spelling them out.

const ROOT = path.join(__dirname, '..', '..');

/** Texts no source spells out, each guarded for a reason. */
const GUARDED_ARTEFACTS: Record<string, string> = {
	'[object Object]': 'an object put into a text without being turned into words',
	undefined: 'a value that was never set, put into a text',
	NaN: 'a number read from a value that is not one',
	null: 'an absent value put into a text',
	[TEST_API_KEY]: 'the key the tests run with: no output, error or log may carry it',
	'other-token':
		'a bearer token the redaction test hands in itself (transport.test.ts): it must not come back',
	ai_languageModel:
		"n8n's name of a connection type in a workflow's JSON (ai_tool, ai_languageModel): a builder hint that says it is copied into workflows",
};

/** Where the suites are, and where the texts that can be printed come from: whole folders. */
const SUITE_FOLDERS = ['test', 'bench'];
const SOURCE_FOLDERS = ['nodes', 'credentials', path.join('test', 'simulator')];
const SKIPPED = new Set(['node_modules', '.stryker-tmp']);

function filesUnder(folder: string, keep: (name: string) => boolean): string[] {
	if (!fs.existsSync(folder)) return [];
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(full, keep);
		return keep(entry.name) ? [full] : [];
	});
}

const isScript = (name: string) => /\.(ts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts');

function parse(file: string, text = fs.readFileSync(file, 'utf8')): ts.SourceFile {
	const kind = file.endsWith('.ts') ? ts.ScriptKind.TS : ts.ScriptKind.JS;
	return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

/**
 * Every text a script spells out: its string literals, the fixed parts of its templates, and the
 * names of its object literals' fields (a request's headers, a reply's fields go out as text).
 */
function scriptTexts(source: ts.SourceFile): string[] {
	const texts: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			ts.isStringLiteral(node) ||
			ts.isNoSubstitutionTemplateLiteral(node) ||
			ts.isTemplateHead(node) ||
			ts.isTemplateMiddle(node) ||
			ts.isTemplateTail(node)
		)
			texts.push(node.text);
		if (
			(ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) &&
			ts.isIdentifier(node.name)
		)
			texts.push(node.name.text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return texts;
}

/** Every string of a JSON file (the codex), keys included. */
function jsonTexts(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(jsonTexts);
	if (typeof value === 'object' && value !== null)
		return Object.entries(value).flatMap(([key, inner]) => [key, ...jsonTexts(inner)]);
	return [];
}

/** The texts the node and the simulator can print, from whatever files those folders hold now. */
function printableTexts(): string[] {
	return SOURCE_FOLDERS.flatMap((folder) =>
		filesUnder(path.join(ROOT, folder), (name) => isScript(name) || name.endsWith('.json')),
	)
		.filter((file) => !file.endsWith('.test.ts'))
		.flatMap((file) =>
			file.endsWith('.json')
				? jsonTexts(JSON.parse(fs.readFileSync(file, 'utf8')))
				: scriptTexts(parse(file)),
		);
}

interface NegativeLiteral {
	where: string;
	matcher: string;
	literal: string | RegExp;
}

const MATCHERS = new Set(['toContain', 'toMatch', 'stringContaining', 'stringMatching']);

/** The literal a matcher is given, or undefined for an expression (a variable, a template with parts). */
function literalOf(argument: ts.Expression | undefined): string | RegExp | undefined {
	if (argument === undefined) return undefined;
	if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument))
		return argument.text;
	if (argument.kind !== ts.SyntaxKind.RegularExpressionLiteral) return undefined;
	const text = argument.getText();
	const end = text.lastIndexOf('/');
	return new RegExp(text.slice(1, end), text.slice(end + 1).replace(/[gy]/g, ''));
}

/** Every `….not.<matcher>(literal)` of a script, where it is and what it asserts is absent. */
function negativeLiterals(source: ts.SourceFile, shownAs: string): NegativeLiteral[] {
	const found: NegativeLiteral[] = [];
	const visit = (node: ts.Node): void => {
		if (
			ts.isCallExpression(node) &&
			ts.isPropertyAccessExpression(node.expression) &&
			MATCHERS.has(node.expression.name.text) &&
			ts.isPropertyAccessExpression(node.expression.expression) &&
			node.expression.expression.name.text === 'not'
		) {
			const literal = literalOf(node.arguments[0]);
			const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
			if (literal !== undefined)
				found.push({ where: `${shownAs}:${line}`, matcher: node.expression.name.text, literal });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

function found(literal: string | RegExp, texts: readonly string[]): boolean {
	return texts.some((text) =>
		typeof literal === 'string' ? text.includes(literal) : literal.test(text),
	);
}

/** The assertions that guard nothing: their literal is neither printable nor a guarded artefact. */
function unguarded(literals: NegativeLiteral[], printable: readonly string[]): string[] {
	const artefacts = Object.keys(GUARDED_ARTEFACTS);
	return literals
		.filter(({ literal }) => !found(literal, artefacts) && !found(literal, printable))
		.map(({ where, matcher, literal }) => `${where} .not.${matcher}(${String(literal)})`);
}

const printable = printableTexts();
const suites = SUITE_FOLDERS.flatMap((folder) => filesUnder(path.join(ROOT, folder), isScript));
const literals = suites.flatMap((file) => negativeLiterals(parse(file), path.relative(ROOT, file)));

test('the suites have negative assertions to check, and the sources texts to check them against', () => {
	expect(literals.length).toBeGreaterThan(20);
	expect(printable.length).toBeGreaterThan(1000);
});

test('every text a suite asserts is absent is one the node or the simulator can print, or a guarded artefact', () => {
	expect(unguarded(literals, printable)).toEqual([]);
});

test('an assertion on a text nothing prints is found, with its file and line', () => {
	const sample = parse(
		'sample.test.ts',
		[
			"expect(description).not.toContain('Wait for Task');",
			"expect(description).not.toContain('Wait for Completion');",
			'expect(description).not.toMatch(/Wait for Task/);',
			"expect(item).toEqual(expect.not.stringContaining('Wait for Task'));",
			"expect(description).not.toContain('[object Object]');",
		].join('\n'),
	);

	expect(unguarded(negativeLiterals(sample, 'sample.test.ts'), printable)).toEqual([
		'sample.test.ts:1 .not.toContain(Wait for Task)',
		'sample.test.ts:3 .not.toMatch(/Wait for Task/)',
		'sample.test.ts:4 .not.stringContaining(Wait for Task)',
	]);
});

test('every guarded artefact says why it is guarded', () => {
	for (const reason of Object.values(GUARDED_ARTEFACTS)) expect(reason.length).toBeGreaterThan(20);
});
