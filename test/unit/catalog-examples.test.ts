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

interface Workflow {
	nodes: Node[];
	connections: Record<string, { main: Array<Array<{ node: string }> | null> }>;
}

const workflowOf = (name: string): Workflow =>
	JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${name}.json`), 'utf8'));
const nodesOf = (name: string): Node[] => workflowOf(name).nodes;
const isDataTable = (node: Node) => node.type === 'n8n-nodes-base.dataTable';
const mapsInput = (node: Node) => node.parameters.columns?.mappingMode === 'autoMapInputData';

/** The nodes whose output goes into `target`. */
const feeding = (workflow: Workflow, target: string): Node[] =>
	workflow.nodes.filter((n) =>
		(workflow.connections[n.name]?.main ?? []).some((branch) =>
			(branch ?? []).some((c) => c.node === target),
		),
	);

/** `={{ 0 }}`, `={{ '' }}`, or a value typed without an expression. */
const isConstant = (value: unknown) =>
	typeof value !== 'string' ||
	!value.startsWith('=') ||
	/^=\{\{\s*('[^']*'|"[^"]*"|-?[0-9.]+|true|false|null)\s*\}\}$/.test(value);

describe.each(EXAMPLES)('examples/%s.json', (example) => {
	const workflow = workflowOf(example);
	const nodes = workflow.nodes;
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

	/** The columns a node writes: its own values, or the fields of the Set nodes it maps. */
	const written = (node: Node): string[] =>
		mapsInput(node)
			? feeding(workflow, node.name).flatMap((set) =>
					set.parameters.assignments.assignments.map((a: { name: string }) => a.name),
				)
			: Object.keys(node.parameters.columns?.value ?? {});

	it('writes and looks up only columns the workflow creates', () => {
		for (const node of rowNodes) {
			const columns = created.get(node.parameters.dataTableId.value) ?? [];
			const used = [
				...written(node),
				...(node.parameters.filters?.conditions ?? []).map((c: { keyName: string }) => c.keyName),
			];
			expect([node.name, used.filter((c) => !columns.includes(c))]).toEqual([node.name, []]);
		}
	});

	// n8n's editor empties the values a Data Table node maps itself when its table is picked, unless
	// it cannot work one of them out: before a run, one that reads the run. On n8n 1.x, where every
	// table is picked from a list before the first run, a node of constants alone would lose them.
	// (After a run in the editor it can work out all of them: the steps say to reopen first.)
	it('keeps its values when a table is picked: constants come from a Set node the table node maps', () => {
		for (const node of rowNodes.filter((n) => n.parameters.columns)) {
			const values = Object.values(node.parameters.columns.value ?? {});
			const fedBy = feeding(workflow, node.name).map((n) => n.type);
			expect([
				node.name,
				mapsInput(node)
					? fedBy.length > 0 && fedBy.every((type) => type === 'n8n-nodes-base.set')
					: values.length > 0 && !values.every(isConstant),
			]).toEqual([node.name, true]);
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
