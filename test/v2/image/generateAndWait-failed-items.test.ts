import type { INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';

// Twenty products, the service refuses one: the other nineteen are kept, and the failed one says
// which product it was.

const simulator = useSimulator();

const products = Array.from({ length: 20 }, (_, index) => ({
	json: { id: 100 + index, title: `Product ${index}` },
}));

const generateAndWait = (options: INodeParameters = {}) => ({
	typeVersion: 2,
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: '={{ $json.title }} on a white background',
		options: {
			maxConcurrency: 1,
			waiting: { value: { initialDelay: 0, pollInterval: 0.1 } },
			...options,
		},
	},
});

const hintsOf = (result: Awaited<ReturnType<typeof runWorkflow>>) =>
	(result.run.data.resultData.runData['Product Image']?.[0]?.hints ?? []).map(
		(hint) => hint.message,
	);

/** The seventh task submitted (item 6) ends failed, as a refused prompt does. */
function refuseItemSix(taskDurationMs = 30) {
	const sim = simulator();
	sim.configure({
		taskDurationMs,
		taskOutcomes: Array.from({ length: 20 }, (_, index) => (index === 6 ? 'fail' : 'succeed')),
	});
	return sim;
}

test('under Continue, the failed item carries its product and a hint counts what failed', async () => {
	const sim = refuseItemSix();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...generateAndWait(), continueOnFail: true }],
		input: products,
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(20);
	const failed = result.items[6].json;
	expect(failed.error).toBe('The service could not complete the task');
	// The node's own fields first, then the product's, as on a succeeded item.
	expect(failed).toMatchObject({ outcome: 'final', id: 106, title: 'Product 6' });
	expect(Object.keys(failed).indexOf('id')).toBeGreaterThan(Object.keys(failed).indexOf('outcome'));
	expect(result.items[5].json).toMatchObject({ status: 'succeeded', id: 105 });
	expect(hintsOf(result)).toContain(
		"1 of 20 items failed: item 6. Each failed item holds 'error' and 'outcome'; the other items are complete.",
	);
});

test('with Include Other Input Fields off, the failed item holds only what the node knows', async () => {
	const sim = refuseItemSix();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...generateAndWait({ includeOtherFields: false }), continueOnFail: true }],
		input: products,
	});

	expect(result.items[6].json.id).toBeUndefined();
	expect(result.items[5].json.id).toBeUndefined();
	expect(hintsOf(result)).toContain(
		"1 of 20 items failed: item 6. Each failed item holds 'error' and 'outcome'; the other items are complete.",
	);
});

test('without failures there is no count', async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 30 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...generateAndWait(), continueOnFail: true }],
		input: products.slice(0, 2),
	});

	expect(hintsOf(result).filter((hint) => hint.includes('failed'))).toEqual([]);
});

test('a stop says how to keep the other items, and the billed tasks are data an error workflow reads', async () => {
	// Five at a time: when item 6 fails, the items after it are at the service, billed.
	const sim = refuseItemSix(300);
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ maxConcurrency: 5 })],
		input: products,
	});

	expect(result.error?.message).toBe('The service could not complete the task [item 6]');
	expect(result.error?.description).toContain(
		"To let the other items go on when one fails, set 'On Error' in the node's Settings to 'Continue'.",
	);
	expect(result.error?.description).toContain(
		"An error workflow (Error Trigger) gets these tasks as data in 'execution.error.context.acceptedTasks'",
	);
	// What the Error Trigger receives is the error as JSON: the tasks are in it.
	const asSaved = JSON.parse(JSON.stringify(result.error)) as {
		context: { acceptedTasks: Array<{ itemIndex: number; taskId: string }> };
	};
	expect(asSaved.context.acceptedTasks.length).toBeGreaterThan(0);
	for (const { itemIndex, taskId } of asSaved.context.acceptedTasks)
		expect(result.error?.description).toContain(`item ${itemIndex}: ${taskId}`);
});
