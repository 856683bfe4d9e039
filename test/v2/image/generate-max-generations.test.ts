import type { INodeExecutionData } from 'n8n-workflow';

import { useSimulator } from '../../harness/simulator';
import {
	FIVE_ITEMS as many,
	quickWait,
	runOn,
	submittingNode as submitting,
} from '../../harness/operations';
import { expectNoGenerationLimit } from '../../harness/versionCases';

// Max Generations per Run, the spending guard of both generation operations: it stops a run before
// the first submit. 0, the value the panel shows, is no limit.

const simulator = useSimulator();

const run = async (node: ReturnType<typeof submitting>, input: INodeExecutionData[]) => {
	const sim = simulator();
	const result = await runOn(sim, [node], input);
	return { sim, result };
};

test.each([{ operation: 'generate' }, { operation: 'generateAndWait' }])(
	'$operation: more items than the limit stop the run before any request',
	async ({ operation }) => {
		const { sim, result } = await run(
			submitting({ ...quickWait(), maxGenerations: 3 }, { operation }),
			many,
		);

		expect(result.error?.message).toBe(
			"This run would submit 5 generations, more than 'Max Generations per Run' (3)",
		);
		expect(result.error?.description).toBe(
			'5 items came in, and each submits one generation that the service bills; nothing was submitted. ' +
				"To allow it, raise 'Max Generations per Run' in the node's Options to 5 or more (or remove the option); " +
				'to spend less, filter or limit the items before this node.',
		);
		expect(sim.stats.requests).toHaveLength(0);
	},
);

test('at the limit the run goes ahead; without the option there is no limit', async () => {
	const sim = simulator();
	const atLimit = await runOn(sim, [submitting({ maxGenerations: 5 })], many);
	expect(atLimit.error).toBeUndefined();
	expect(sim.stats.submitsAccepted).toBe(5);

	const unlimited = await runOn(sim, [submitting({})], [...many, ...many]);
	expect(unlimited.error).toBeUndefined();
	expect(sim.stats.submitsAccepted).toBe(15);
});

test('items refused for their own parameters are not counted: only submits count', async () => {
	const { sim, result } = await run(
		submitting({ maxGenerations: 2 }, { prompt: '={{ $json.prompt }}', continueOnFail: true }),
		[{ json: { prompt: 'a' } }, { json: { prompt: '' } }, { json: { prompt: 'b' } }],
	);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json.error === undefined)).toEqual([true, false, true]);
	expect(sim.stats.submitsAccepted).toBe(2);
});

test.each([
	['empty', ''],
	['an expression that gives nothing', '={{ null }}'],
])('a limit left %s is no limit', async (_, maxGenerations) => {
	await expectNoGenerationLimit(simulator(), 2, maxGenerations);
});

test('0, the value the panel shows, is no limit', async () => {
	const { sim, result } = await run(submitting({ maxGenerations: 0 }), many);

	expect(result.error).toBeUndefined();
	expect(sim.stats.submitsAccepted).toBe(5);
});

test('any other limit holds, and one below 0 is refused', async () => {
	const over = await run(submitting({ maxGenerations: 3 }), many);
	expect(over.result.error?.message).toBe(
		"This run would submit 5 generations, more than 'Max Generations per Run' (3)",
	);
	const below = await run(submitting({ maxGenerations: -1 }), many);
	expect(below.result.error?.message).toBe(
		"'Max Generations per Run': must be a whole number of at least 0, got -1",
	);
	expect([over, below].map(({ sim }) => sim.stats.requests.length)).toEqual([0, 0]);
});

test('a limit of one lets one item through', async () => {
	const { sim, result } = await run(submitting({ maxGenerations: 1 }), many.slice(0, 1));

	expect(result.error).toBeUndefined();
	expect(sim.stats.submitsAccepted).toBe(1);
});

test('a run with nothing left to submit is not held to the limit, even one that reads wrong', async () => {
	const { sim, result } = await run(
		submitting({ maxGenerations: '={{ -1 }}' }, { prompt: '', continueOnFail: true }),
		[{ json: {} }, { json: {} }],
	);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => String(item.json.error))).toEqual([
		expect.stringContaining('a generation needs a prompt'),
		expect.stringContaining('a generation needs a prompt'),
	]);
	expect(sim.stats.requests).toHaveLength(0);
});
