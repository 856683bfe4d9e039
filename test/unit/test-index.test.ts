import * as fs from 'node:fs';
import * as path from 'node:path';
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';

// test/README.md indexes the suites by operation: each operation of the current version has a file
// of its own where its code has one, `test/v2/<resource>/<operation>.test.ts` for
// `nodes/ProductImage/v2/actions/<resource>/<operation>.operation.ts`, and the table lists every
// other suite that runs it. This test reads which suites run which operation from their sources and
// fails when the table says otherwise, printing the table as it should be; it never writes the file.

const ROOT = path.join(__dirname, '..', '..');
const INDEX = path.join(ROOT, 'test', 'README.md');
const SUITES = ['test/v2', 'test/v1', 'test/engine', 'test/faults'];
const ACTIONS = path.join(ROOT, 'nodes', 'ProductImage', 'v2', 'actions');

/** The test files under a folder, its subfolders included, in name order. */
function testFiles(folder: string): string[] {
	return fs
		.readdirSync(path.join(ROOT, folder), { withFileTypes: true })
		.sort((a, b) => a.name.localeCompare(b.name))
		.flatMap((entry) => {
			const file = `${folder}/${entry.name}`;
			if (entry.isDirectory()) return testFiles(file);
			return entry.name.endsWith('.test.ts') ? [file] : [];
		});
}

/** Every operation of the panel as `resource/operation`, with its own file's expected name. */
function operations(): Array<{ key: string; title: string; ownFile: string }> {
	const properties = new ProductImage().description.properties;
	const resources = properties.find((property) => property.name === 'resource')
		?.options as INodePropertyOptions[];
	return resources.flatMap((resource) =>
		properties
			.filter(
				(property: INodeProperties) =>
					property.name === 'operation' &&
					property.displayOptions?.show?.resource?.includes(resource.value),
			)
			.flatMap((property) => property.options as INodePropertyOptions[])
			.map((operation) => ({
				key: `${String(resource.value)}/${String(operation.value)}`,
				title: `${resource.name} → ${operation.name}`,
				ownFile: `test/v2/${String(resource.value)}/${String(operation.value)}.test.ts`,
			})),
	);
}

/** The harness's node builders (test/harness/operations.ts) by name, with the operation each runs. */
function builders(): Array<{ name: string; key: string }> {
	const source = fs.readFileSync(path.join(ROOT, 'test', 'harness', 'operations.ts'), 'utf8');
	return source.split(/^export /m).flatMap((chunk) => {
		const name = /^(?:async function|function|const) (\w+)/.exec(chunk)?.[1];
		const resource = /resource: '(\w+)'/.exec(chunk)?.[1];
		const operation = /operation: '(\w+)'/.exec(chunk)?.[1];
		return name && resource && operation ? [{ name, key: `${resource}/${operation}` }] : [];
	});
}

const BUILDERS = builders();

/**
 * The suites whose source runs the operation: by its parameters, by its fault-case name, or through
 * a harness builder that runs it.
 */
function suitesRunning(resource: string, operation: string): string[] {
	const builtBy = BUILDERS.filter(({ key }) => key === `${resource}/${operation}`).map(
		({ name }) => `\\b${name}\\b`,
	);
	const runs = new RegExp(
		[`operation: '${operation}'`, `'${resource}/${operation}'`, ...builtBy].join('|'),
	);
	return SUITES.flatMap(testFiles).filter((file) =>
		runs.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
	);
}

function expectedTable(): string {
	const rows = operations().map(({ key, title, ownFile }) => {
		const [resource, operation] = key.split('/');
		const others = suitesRunning(resource, operation).filter((file) => file !== ownFile);
		const link = (file: string) =>
			`[${path.relative('test', file)}](${path.relative('test', file)})`;
		return `| ${title} | ${link(ownFile)} | ${others.map(link).join(', ')} |`;
	});
	return ['| Operation | Its own suite | Also run in |', '|---|---|---|', ...rows].join('\n');
}

test('every operation has a suite of its own, named after it', () => {
	const missing = operations()
		.map(({ ownFile }) => ownFile)
		.filter((file) => !fs.existsSync(path.join(ROOT, file)));
	expect(missing).toEqual([]);
});

test('each operation file of the current version has its test file beside the same names', () => {
	const operationFiles = fs
		.readdirSync(ACTIONS, { recursive: true, encoding: 'utf8' })
		.filter((file) => file.endsWith('.operation.ts'))
		.map((file) => `test/v2/${file.replace(/\\/g, '/').replace(/\.operation\.ts$/, '.test.ts')}`);
	const tests = testFiles('test/v2');
	expect(operationFiles.filter((file) => !tests.includes(file))).toEqual([]);
});

test('each suite of its own runs its operation', () => {
	const idle = operations().filter(({ key, ownFile }) => {
		const [resource, operation] = key.split('/');
		return !suitesRunning(resource, operation).includes(ownFile);
	});
	expect(idle.map(({ key }) => key)).toEqual([]);
});

test("test/README.md's index lists, for each operation, every suite that runs it", () => {
	const text = fs.readFileSync(INDEX, 'utf8');
	const table = /<!-- index -->\n([\s\S]*?)\n<!-- \/index -->/.exec(text)?.[1];
	const expected = expectedTable();
	// The whole table in the message, ready to paste between the markers.
	if (table !== expected)
		throw new Error(`The index in test/README.md is stale. It should read:\n${expected}`);
});
