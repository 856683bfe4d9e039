import * as fs from 'node:fs';
import * as path from 'node:path';
import type {
	FilterValue,
	INode,
	INodeExecutionData,
	INodeTypes,
	IRunData,
	RegexEngine,
} from 'n8n-workflow';
import {
	createRunExecutionData,
	executeFilter,
	resetSafeRegexEngine,
	setSafeRegexEngine,
	Workflow,
} from 'n8n-workflow';

// The submit run's first decision, on the row named submit in catalogue_runs: none yet (the run
// writes it), a row whose lease_until is a number (the run tries to take it, and waits while another
// run holds it), or a row whose lease_until is anything else (the run ends saying what to set). The
// Switch's rules are resolved and evaluated by n8n-workflow, as the Switch node does it.

interface Rule {
	conditions: FilterValue;
}
interface SwitchParameters {
	rules: { values: Rule[] };
	options: { fallbackOutput?: string };
}

const workflow = JSON.parse(
	fs.readFileSync(path.join(__dirname, '..', '..', 'examples', 'catalogue-submit.json'), 'utf8'),
) as { nodes: INode[]; connections: Record<string, { main: Array<Array<{ node: string }>> }> };
const CHECK = 'Which run state?';
const node = (name: string) => workflow.nodes.find((n) => n.name === name) as INode;
const check = node(CHECK).parameters as unknown as SwitchParameters;
const noTypes = { description: { properties: [] } };
const nodeTypes = {
	getByName: () => noTypes,
	getByNameAndVersion: () => noTypes,
	getKnownTypes: () => ({}),
} as unknown as INodeTypes;

// n8n-workflow runs each filter regex in a vm stopped after 250 ms of wall-clock time; on a loaded
// machine even ^[0-9]+$ has overrun that here. The guard is n8n's: this file asks what the workflow
// decides, so its regexes run unguarded.
const regex = (pattern: string, flags = '') => new RegExp(pattern, flags);
const unguardedRegex: RegexEngine = {
	exec: (pattern, input, flags) => regex(pattern, flags).exec(input),
	test: (pattern, input, flags) => regex(pattern, flags).test(input),
	replace: (pattern, input, flags, by) => input.replace(regex(pattern, flags), by),
	matchAll: (pattern, input, flags = '') =>
		Array.from(input.matchAll(regex(pattern, flags.includes('g') ? flags : `${flags}g`))),
	split: (pattern, input, flags) => input.split(regex(pattern, flags)),
};
beforeAll(() => setSafeRegexEngine(unguardedRegex));
afterAll(resetSafeRegexEngine);

// The Workflow fills each node's parameters from its type: it gets copies.
const expressions = new Workflow({
	nodes: structuredClone(workflow.nodes),
	connections: workflow.connections as never,
	active: false,
	nodeTypes,
}).expression;

/** The nodes the row goes on to from the run-state check. */
function nextAfterCheck(row: Record<string, unknown>): string[] {
	const items: INodeExecutionData[] = [{ json: row as never }];
	const { values } = check.rules;
	let output = values.findIndex((rule) =>
		executeFilter(
			expressions.getParameterValue(
				rule.conditions as never,
				null,
				0,
				0,
				CHECK,
				items,
				'trigger',
				{},
			) as FilterValue,
		),
	);
	if (output === -1 && check.options.fallbackOutput === 'extra') output = values.length;
	return (workflow.connections[CHECK].main[output] ?? []).map((c) => c.node);
}

/**
 * What this run did's fields, each of its expressions evaluated as the Set node does, after the run
 * has executed the nodes given with their output: an expression that fails fails the run there.
 */
function whatThisRunDid(ran: Record<string, Record<string, unknown>>): Record<string, unknown> {
	const runData: IRunData = {};
	for (const [name, json] of Object.entries(ran))
		runData[name] = [
			{
				startTime: 0,
				executionTime: 0,
				executionIndex: 0,
				source: [],
				data: { main: [[{ json }]] },
			},
		] as never;
	const fields = node('What this run did').parameters.assignments as {
		assignments: Array<{ name: string; value: string }>;
	};
	return Object.fromEntries(
		fields.assignments.map((a) => [
			a.name,
			expressions.getParameterValue(
				a.value,
				createRunExecutionData({ resultData: { runData } }),
				0,
				0,
				'What this run did',
				[{ json: ran[CHECK] as never }],
				'trigger',
				{},
			),
		]),
	);
}

const row = (leaseUntil: unknown) => ({
	name: 'submit',
	holder: '',
	lease_until: leaseUntil,
	after: '',
	sending: '',
});

it('writes the run state on the first run ever', () => {
	expect(nextAfterCheck({})).toEqual(['First run state']);
});

it('tries to take a row whose lease_until is a number, free or held by another run', () => {
	expect(nextAfterCheck(row(0))).toEqual(['Take the run']);
	expect(nextAfterCheck(row(String(Date.now())))).toEqual(['Take the run']);
	const held = { ...row(Date.now() + 60_000), holder: '41' };
	expect(nextAfterCheck(held)).toEqual(['Take the run']);
	// Only a run whose hold has lapsed is taken: a held row comes out as it was, and the run waits.
	const take = node('Take the run').parameters.filters as { conditions: unknown[] };
	expect(take.conditions).toContainEqual(
		expect.objectContaining({ keyName: 'lease_until', condition: 'lt' }),
	);
	// Held for all of the wait: the run says so and ends, with nothing to set.
	const waited = whatThisRunDid({
		'Run state': held,
		[CHECK]: held,
		'Take the run': held,
		'Keep waiting?': held,
	});
	expect([waited.result, waited.problem, waited.unknown_rows]).toEqual([
		'Another run held the run for 90 s: nothing submitted; the next tick tries again.',
		'',
		0,
	]);
});

it.each([null, '', 'soon'])('ends saying what to set when lease_until is %j', (leaseUntil) => {
	expect(nextAfterCheck(row(leaseUntil))).toEqual(['What this run did']);
	expect(whatThisRunDid({ 'Run state': row(leaseUntil), [CHECK]: row(leaseUntil) }).problem).toBe(
		`The row named submit in the Data Table catalogue_runs has lease_until ${JSON.stringify(leaseUntil)}, not a number: set it to 0 (a Number column), or delete the row and the next run writes it again.`,
	);
});
