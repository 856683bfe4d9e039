import * as fs from 'node:fs';
import * as path from 'node:path';

// The catalog pair as an operator imports it: nothing to pick, nothing to type but the shop and the
// credentials. Every Data Table node finds its table by name and says which; the tables are created
// by the workflow with every column its nodes use; every node that needs a credential says so, and
// the README's set-up steps name exactly those nodes.

const ROOT = path.join(__dirname, '..', '..');
const EXAMPLES = ['catalogue-submit', 'catalogue-collect'];

interface Node {
	name: string;
	type: string;
	notes?: string;
	credentials?: Record<string, unknown>;
	parameters: Record<string, any>;
}

const nodesOf = (name: string): Node[] =>
	JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${name}.json`), 'utf8')).nodes;
const isDataTable = (node: Node) => node.type === 'n8n-nodes-base.dataTable';

describe.each(EXAMPLES)('examples/%s.json', (example) => {
	const nodes = nodesOf(example);
	const created = new Map<string, string[]>(
		nodes
			.filter((n) => isDataTable(n) && n.parameters.resource === 'table')
			.map((n) => [
				n.parameters.tableName,
				n.parameters.columns.column.map((c: { name: string }) => c.name),
			]),
	);
	const rowNodes = nodes.filter((n) => isDataTable(n) && n.parameters.resource !== 'table');

	it('creates each table it uses, when it does not exist yet', () => {
		expect(rowNodes.length).toBeGreaterThan(0);
		for (const node of nodes.filter((n) => isDataTable(n) && n.parameters.resource === 'table')) {
			expect([node.name, node.parameters.operation, node.parameters.options]).toEqual([
				node.name,
				'create',
				{ createIfNotExists: true },
			]);
		}
		for (const node of rowNodes) {
			expect([node.name, created.has(node.parameters.dataTableId.value)]).toEqual([
				node.name,
				true,
			]);
		}
	});

	it('finds every table by name, and each Data Table node says which', () => {
		for (const node of rowNodes) {
			const table = node.parameters.dataTableId;
			expect([
				node.name,
				table.mode,
				node.notes?.startsWith(`Data Table: ${table.value} `),
			]).toEqual([node.name, 'name', true]);
		}
	});

	it('writes and looks up only columns the workflow creates', () => {
		for (const node of rowNodes) {
			const columns = created.get(node.parameters.dataTableId.value) ?? [];
			const used = [
				...Object.keys(node.parameters.columns?.value ?? {}),
				...(node.parameters.filters?.conditions ?? []).map((c: { keyName: string }) => c.keyName),
			];
			expect([node.name, used.filter((c) => !columns.includes(c))]).toEqual([node.name, []]);
		}
	});

	it('says in each node that needs a credential which one', () => {
		const needing = nodes.filter((n) => n.credentials || n.parameters.nodeCredentialType);
		expect(needing.length).toBeGreaterThan(0);
		for (const node of needing)
			expect([node.name, node.notes?.startsWith('Credential: ')]).toEqual([node.name, true]);
	});
});

it("the README's set-up steps name every node of the pair that needs a credential", () => {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const step = /\n2\. In \*\*Catalogue: submit[^\n]*(?:\n {3}[^\n]*)*/.exec(readme)?.[0] ?? '';
	const named = [...step.matchAll(/credential in ([^;.]*)/g)].flatMap((m) =>
		[...m[1].matchAll(/\*\*([^*]+)\*\*/g)].map((n) => n[1].replace(/\s+/g, ' ')),
	);
	const needing = EXAMPLES.flatMap(nodesOf)
		.filter((n) => n.credentials || n.parameters.nodeCredentialType)
		.map((n) => n.name);
	expect(named.sort()).toEqual(needing.sort());
});
