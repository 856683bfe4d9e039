import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

// A function in the node or the credential reads as the decision it makes: at most 60 lines, so a
// newcomer sees all of it at once. Longer ones are split by what they decide.

const MAX_LINES = 60;
const ROOT = path.join(__dirname, '..', '..');

function sourceFiles(folder: string): string[] {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
	return (
		ts.isFunctionDeclaration(node) ||
		ts.isMethodDeclaration(node) ||
		ts.isArrowFunction(node) ||
		ts.isFunctionExpression(node)
	);
}

/** Every function of a file with its length in lines, as `file:line name (N lines)`. */
function functionLengths(file: string): Array<{ where: string; lines: number }> {
	const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	const found: Array<{ where: string; lines: number }> = [];
	const visit = (node: ts.Node): void => {
		if (isFunction(node)) {
			const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const name = node.name?.getText(source) ?? '(anonymous)';
			found.push({
				where: `${path.relative(ROOT, file)}:${first + 1} ${name}`,
				lines: last - first + 1,
			});
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

const functions = ['nodes', 'credentials']
	.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))
	.flatMap(functionLengths);

test('the node and the credential have functions to measure', () => {
	expect(functions.length).toBeGreaterThan(100);
});

test(`no function in nodes/ or credentials/ is over ${MAX_LINES} lines`, () => {
	const long = functions.filter(({ lines }) => lines > MAX_LINES);
	expect(long.map(({ where, lines }) => `${where} (${lines} lines)`)).toEqual([]);
});

// The node's whole code (both versions) stays within this, so a newcomer can still read all of it:
// growth goes into sharing, not into another copy. 0.3.0 had 8,474 lines; the AI tool's own
// description of each operation added 82, and folding single-use files into their users took
// back 173.
const MAX_NODE_LINES = 8041;

test(`the node and the credential hold at most ${MAX_NODE_LINES} lines of code`, () => {
	const lines = ['nodes', 'credentials']
		.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))
		.reduce((sum, file) => sum + fs.readFileSync(file, 'utf8').split('\n').length - 1, 0);
	expect(lines).toBeGreaterThan(1000);
	expect(lines).toBeLessThanOrEqual(MAX_NODE_LINES);
});
