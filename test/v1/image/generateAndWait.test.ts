import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { PRODUCTS, generateAndWaitNode, runOn } from '../../harness/operations';
import {
	expectFileNames,
	expectNoProductFields,
	expectProductOnEachImage,
	expectRefusedBeforeAnyRequest,
} from '../../harness/versionCases';

// Version 1's Generate and Wait: its options flat in Options, and the labels its errors and advice
// name (Poll Interval, Initial Delay, Max Concurrency, Submit Timeout).

const simulator = useSimulator({ taskDurationMs: 0 });

const generateAndWait = (options: Record<string, unknown> = {}) => ({
	typeVersion: 1,
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'studio shot',
		options: { initialDelay: 0, pollInterval: 0.1, maxWaitTime: 10, ...options },
	},
});

test.each([
	[{ pollInterval: 0.01 }, "'Poll Interval'"],
	[{ initialDelay: -1 }, "'Initial Delay'"],
	[{ maxWaitTime: 0 }, "'Max Wait Time'"],
	[{ binaryPropertyName: ' ' }, "'Put Output File in Field'"],
])('bad wait options %j are refused before the submit', async (options, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), generateAndWait(options), message);
});

test('a 429 storm on submit gives up with advice to lower Max Concurrency', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 429, retryAfter: '0', times: Infinity });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait()],
	});

	expect(result.error?.message).toBe('The service asked to slow down [item 0]');
	expect(result.error?.description).toContain('tried 4 times');
	expect(result.error?.description).toContain('Max Concurrency');
	expect(sim.stats.submitsAccepted).toBe(0);
});

test('a submit reply slower than the Submit Timeout is not retried, and the advice names it', async () => {
	const sim = simulator();
	// The Submit Timeout's clock runs from before the connection: 2 s leaves a busy machine room.
	sim.addFault({ route: 'submit', delayMs: 10_000 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ submitTimeout: 2 })],
	});

	expect(result.error?.message).toBe(
		'The service did not answer the generation request in time [item 0]',
	);
	expect(result.error?.description).toContain('Submit Timeout');
	expect(sim.stats.byRoute.submit).toBe(1);
});

describe('the product’s fields on the generated items', () => {
	test('left out by default', async () => {
		await expectNoProductFields(simulator(), 1, {}, PRODUCTS);
	});

	test('Include Other Input Fields puts the product on each image item; the node’s own fields win', async () => {
		await expectProductOnEachImage(simulator(), 1);
	});

	test('without Product Name the service’s file names stay', async () => {
		await expectFileNames(simulator(), 1, {}, PRODUCTS, [/^task_.*-0\.png$/, /^task_.*-0\.png$/]);
	});

	test('the service’s file names stay whatever the Product Name', async () => {
		const sim = simulator();
		const result = await runOn(
			sim,
			[generateAndWaitNode({}, 1, { productName: '={{ $json.title }}' })],
			PRODUCTS.slice(0, 1),
		);

		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data.fileName).toBe(
			`${String(result.items[0].json.task_id)}-0.png`,
		);
	});
});
