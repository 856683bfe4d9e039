import * as fs from 'node:fs';
import * as path from 'node:path';

// The submit run's batch loop, from "One batch at a time" round to it again, is done by n8n's own
// nodes in the worker: no batch is handed to the task runner of a Code node, and no product is
// let through to Submit generation before Mark the batch as sending has marked its batch.

interface Workflow {
	nodes: Array<{ name: string; type: string; parameters: Record<string, any> }>;
	connections: Record<string, { main: Array<Array<{ node: string; index: number }>> }>;
}

const workflow: Workflow = JSON.parse(
	fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'catalogue-submit.json'), 'utf8'),
);
const LOOP = 'One batch at a time';
const byName = new Map(workflow.nodes.map((n) => [n.name, n]));

/** The nodes reached from the loop's batch output before it comes round to the loop again. */
function loopNodes(): string[] {
	const seen = new Set<string>();
	const next = workflow.connections[LOOP].main[1].map((c) => c.node);
	while (next.length) {
		const name = next.pop() as string;
		if (name === LOOP || seen.has(name)) continue;
		seen.add(name);
		for (const output of workflow.connections[name]?.main ?? [])
			next.push(...output.map((c) => c.node));
	}
	return [...seen];
}

it('runs no Code node in the batch loop', () => {
	const loop = loopNodes();
	expect(loop).toContain('Submit generation');
	expect(loop.filter((name) => byName.get(name)?.type === 'n8n-nodes-base.code')).toEqual([]);
});

it('lets the batch reach Submit generation only through a Merge that waits for the mark', () => {
	const into = (target: string) =>
		Object.entries(workflow.connections).flatMap(([from, { main }]) =>
			main.flatMap((output) => output.filter((c) => c.node === target).map((c) => [from, c.index])),
		);
	const [[gate]] = into('Submit generation');
	expect([byName.get(gate as string)?.type, byName.get(gate as string)?.parameters.mode]).toEqual([
		'n8n-nodes-base.merge',
		'chooseBranch',
	]);
	expect(into(gate as string)).toEqual(
		expect.arrayContaining([
			[LOOP, 0],
			['Mark the batch as sending', 1],
		]),
	);
});
