import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

// An operation's file reads as a short path to its request: the node's other files its imports
// reach, directly or through other files, stay few, so a newcomer following one operation reads a
// handful of files.

const MAX_REACH = 20;
const ROOT = path.join(__dirname, '..', '..');
const OPERATIONS = path.join(ROOT, 'nodes', 'ProductImage', 'v2', 'actions');

function sourceFiles(folder: string): string[] {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

const nodeFiles = new Set(['nodes', 'credentials'].flatMap((f) => sourceFiles(path.join(ROOT, f))));

/** The node's own files a file imports, type-only imports included: a reader follows those too. */
function importsOf(file: string): string[] {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	const specifiers: string[] = [];
	const visit = (node: ts.Node): void => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		)
			specifiers.push(node.moduleSpecifier.text);
		if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
			const literal = node.argument.literal;
			if (ts.isStringLiteral(literal)) specifiers.push(literal.text);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return specifiers
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => path.resolve(path.dirname(file), specifier))
		.map((base) => [`${base}.ts`, path.join(base, 'index.ts')].find((f) => nodeFiles.has(f)))
		.filter((found): found is string => found !== undefined);
}

function reach(file: string): number {
	const seen = new Set<string>([file]);
	const queue = [file];
	for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
		for (const next of importsOf(file).filter((found) => !seen.has(found))) {
			seen.add(next);
			queue.push(next);
		}
	}
	return seen.size - 1;
}

const reaches = sourceFiles(OPERATIONS)
	.filter((file) => file.endsWith('.operation.ts'))
	.map((file) => ({ operation: path.relative(OPERATIONS, file), files: reach(file) }));

test('every operation of the current version is measured', () => {
	expect(reaches.map(({ operation }) => operation)).toContain('image/generateAndWait.operation.ts');
	expect(reaches.length).toBe(8);
});

test(`each operation's file reaches at most ${MAX_REACH} of the node's files`, () => {
	const figures = reaches.map(({ operation, files }) => `${operation}: ${files}`).join('\n');
	const over = reaches.filter(({ files }) => files > MAX_REACH).map(({ operation }) => operation);
	if (over.length) throw new Error(`Over ${MAX_REACH}: ${over.join(', ')}. Reach:\n${figures}`);
});
