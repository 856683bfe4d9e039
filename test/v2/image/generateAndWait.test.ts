import { DEFAULT_VERSION } from '../../../nodes/ProductImage/descriptions/versions';
import { readPngInfo } from '../../simulator';
import { currentVersionOptions, pairedIndexes, photoItem } from '../../harness/fixtures';
import type { INodeProperties } from 'n8n-workflow';

import { binaryBytes, loadedPackage, NODE_TYPE, runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { runOnVirtualClock } from '../../harness/virtualClock';
import { expectRefusedBeforeAnyRequest } from '../../harness/versionCases';

const simulator = useSimulator();

const fast = { initialDelay: 0, pollInterval: 0.1 };
const generateAndWait = (
	options: Record<string, unknown> = {},
	extra: Record<string, unknown> = {},
) => ({
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'studio shot',
		size: '3:2',
		options: currentVersionOptions({ ...fast, ...options }),
		...extra,
	},
});

test('waits for the task and outputs one item per image with binary PNG data', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	// On the virtual clock: the task is still working at the first looks, however busy the machine.
	const result = await runOnVirtualClock(() =>
		runWorkflow({ credentials: credentialsFor(sim), nodes: [generateAndWait()] }),
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2);
	expect(pairedIndexes(result.items)).toEqual([0, 0]);
	const [taskId] = [...sim.tasks.keys()];
	for (const [index, item] of result.items.entries()) {
		expect(item.json).toMatchObject({
			task_id: taskId,
			status: 'succeeded',
			image_index: index,
			image_count: 2,
			asset_id: `generated/open-result/${taskId}-${index}.png`,
		});
		expect(String(item.json.url)).toContain('/v1/open/assets/');
		expect(typeof item.json.expires_at).toBe('string');
		expect(item.binary?.data.mimeType).toBe('image/png');
		expect(item.binary?.data.fileName).toBe(`${taskId}-${index}.png`);
		const png = readPngInfo(await binaryBytes(result, item));
		expect(png.width / png.height).toBeCloseTo(1.5, 1);
	}
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(sim.tasks.get(taskId)!.queries).toBeGreaterThan(1);
});

test('Download Images off outputs the addresses only', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ downloadImages: false })],
	});

	expect(result.items).toHaveLength(1);
	expect(result.items[0].binary).toBeUndefined();
	expect(String(result.items[0].json.url)).toMatch(
		/^http:\/\/127\.0\.0\.1:\d+\/v1\/open\/assets\//,
	);
	expect(sim.stats.byRoute.asset ?? 0).toBe(0);
});

test('One Item per Task puts every image on one item in a field of its own', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 3 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ imagesOutput: 'together', binaryPropertyName: 'image' })],
	});

	expect(result.items).toHaveLength(1);
	expect(Object.keys(result.items[0].binary ?? {})).toEqual(['image_0', 'image_1', 'image_2']);
	expect((result.items[0].json.images as unknown[]).length).toBe(3);
});

test('filesystem binary mode stores the images by id', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		binaryMode: 'filesystem',
		nodes: [generateAndWait()],
	});

	const binary = result.items[0].binary?.data;
	expect(binary?.id).toMatch(/^filesystem-v2:/);
	expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBeGreaterThan(0);
});

test('waits the initial delay before the first query', async () => {
	const sim = simulator();
	await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ initialDelay: 0.4 })],
		}),
	);

	const submit = sim.stats.requests.find((entry) => entry.route === 'submit')!;
	const firstQuery = sim.stats.requests.find((entry) => entry.route === 'task')!;
	// On the virtual clock: exactly the delay after the submit.
	expect(firstQuery.at - submit.at).toBe(400);
});

test('a failed task is an error naming the task, its status and the reason', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'fail' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait()],
	});

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe('The service could not complete the task [item 0]');
	expect(result.error?.description).toContain(`Task ${taskId} ended with status "failed"`);
	expect(result.error?.description).toContain('simulated failure');
	expect(sim.stats.submitsAccepted).toBe(1);
});

test('a task that never finishes gives up after Max Wait Time, naming the task and its last status', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ maxWaitTime: 0.6, pollInterval: 0.1 })],
		}),
	);

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe('The task did not finish within 0.6 s [item 0]');
	expect(result.error?.description).toContain('Its last status was "processing".');
	expect(result.error?.description).toContain(`Wait for Completion' and task ID ${taskId}`);
	// On the virtual clock: the last poll that fits is at 0.6 s, and the run ends there.
	expect(result.durationMs).toBe(600);
});

test('Continue On Fail: a failing item becomes an error item; the others go on', async () => {
	const sim = simulator();
	const input = [
		{ json: { prompt: 'ok' } },
		{ json: { prompt: '' } },
		{ json: { prompt: 'ok too' } },
	];
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...generateAndWait({}, { prompt: '={{ $json.prompt }}' }), continueOnFail: true }],
		input,
	});

	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(result.items[0].binary?.data).toBeDefined();
	expect(result.items[1].json.error).toContain('a generation needs a prompt');
	expect(result.items[2].binary?.data).toBeDefined();
	expect(sim.stats.submitsAccepted).toBe(2);
});

test('Continue On Fail: an error item of a failed task carries the task id and request id', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'fail' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...generateAndWait(), continueOnFail: true }],
		input: [{ json: {} }, { json: {} }],
	});

	expect(result.items).toHaveLength(2);
	const taskIds = [...sim.tasks.keys()].sort();
	expect(result.items.map((item) => item.json.taskId).sort()).toEqual(taskIds);
	for (const item of result.items) {
		expect(item.json.error).toBe('The service could not complete the task');
		expect(item.json.description).toContain(
			`Task ${String(item.json.taskId)} ended with status "failed"`,
		);
		expect(String(item.json.requestId)).toMatch(/^req_/);
	}
});

/** The most intervals open at one instant; an interval ends at its `to`, before one that starts there. */
function mostAtOnce(intervals: Array<{ from: number; to: number }>): number {
	const edges = intervals.flatMap(({ from, to }) => [
		{ at: from, change: 1 },
		{ at: to, change: -1 },
	]);
	edges.sort((a, b) => a.at - b.at || a.change - b.change);
	let open = 0;
	let most = 0;
	for (const edge of edges) most = Math.max(most, (open += edge.change));
	return most;
}

/** Each task from its submit to its completion at the service: a lane submits again only after it saw that. */
const taskSpans = (sim: ReturnType<typeof simulator>) =>
	[...sim.tasks.values()].map((task) => ({
		from: task.createdAt,
		to: task.completedAt ?? Infinity,
	}));

test('items run concurrently up to Items in Parallel and never more, and output keeps input order', async () => {
	const sim = simulator();
	// On the virtual clock, so the first wave of submits lands before any of its tasks ends,
	// however busy the machine.
	sim.configure({ taskDurationMs: 1_500 });
	const input = [0, 1, 2, 3, 4, 5].map((index) => ({ json: { index } }));
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ maxConcurrency: 3 }, { prompt: '={{ "item " + $json.index }}' })],
			input,
		}),
	);

	expect(result.error).toBeUndefined();
	expect(sim.tasks.size).toBe(6);
	expect(mostAtOnce(taskSpans(sim))).toBe(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3, 4, 5]);
	const prompts = result.items.map((item) => sim.tasks.get(String(item.json.task_id))?.body.prompt);
	expect(prompts).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4', 'item 5']);
});

test('Items in Parallel 1 runs the items one after another', async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 200 });
	const input = [0, 1, 2].map((index) => ({ json: { index } }));
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ maxConcurrency: 1 })],
		input,
	});

	expect(result.error).toBeUndefined();
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(sim.tasks.size).toBe(3);
	expect(mostAtOnce(taskSpans(sim))).toBe(1);
	const tasks = [...sim.tasks.values()].sort((a, b) => a.createdAt - b.createdAt);
	for (let index = 1; index < tasks.length; index++) {
		expect(tasks[index].createdAt).toBeGreaterThanOrEqual(tasks[index - 1].completedAt!);
	}
});

/** The default the editor shows for an option of Generate and Wait, from the node as n8n loads it. */
async function shownDefault(option: string): Promise<unknown> {
	const { nodeTypes } = await loadedPackage();
	const { properties } = nodeTypes.getByNameAndVersion(NODE_TYPE, 2).description;
	const options = properties.find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.operation?.includes('generateAndWait') &&
			!property.displayOptions?.show?.['@version']?.includes(1),
	);
	// Options holds bundles (Waiting, Output Files): look through them for the option.
	const find = (children: unknown[]): INodeProperties | undefined => {
		for (const child of children as Array<INodeProperties & { values?: INodeProperties[] }>) {
			if (child.name === option && 'default' in child) return child;
			const inner = find([...((child.options as unknown[]) ?? []), ...(child.values ?? [])]);
			if (inner) return inner;
		}
		return undefined;
	};
	return find((options?.options ?? []) as INodeProperties[])?.default;
}

test('without Waiting, polls come at the First Check After and Check Interval the options show by default', async () => {
	const initialDelayMs = Number(await shownDefault('initialDelay')) * 1000;
	const pollIntervalMs = Number(await shownDefault('pollInterval')) * 1000;
	expect(initialDelayMs).toBeGreaterThan(0);
	expect(pollIntervalMs).toBeGreaterThan(0);
	const sim = simulator();
	// Running at the first poll, finished by the second: two polls on the fixed rhythm, since a
	// run of one task has nothing to learn.
	sim.configure({ taskDurationMs: initialDelayMs + pollIntervalMs / 2 });
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ parameters: { ...generateAndWait().parameters, options: {} } }],
		}),
	);

	expect(result.error).toBeUndefined();
	const submit = sim.stats.requests.find((request) => request.route === 'submit')!;
	const polls = sim.stats.requests.filter((request) => request.route === 'task');
	expect(polls).toHaveLength(2);
	// On the virtual clock: exactly at the Initial Delay, then one Poll Interval later.
	expect(polls.map((poll) => poll.at - submit.at)).toEqual([
		initialDelayMs,
		initialDelayMs + pollIntervalMs,
	]);
});

test('without Items in Parallel, items run as many at once as the option shows by default', async () => {
	const shown = Number(await shownDefault('maxConcurrency'));
	expect(shown).toBeGreaterThan(1);
	const sim = simulator();
	sim.configure({ taskDurationMs: 1_500 });
	const input = Array.from({ length: shown + 2 }, (_, index) => ({ json: { index } }));
	// On the virtual clock: every lane's submit lands before the first task ends.
	const result = await runOnVirtualClock(() =>
		runWorkflow({ credentials: credentialsFor(sim), nodes: [generateAndWait()], input }),
	);

	expect(result.error).toBeUndefined();
	expect(sim.tasks.size).toBe(shown + 2);
	expect(mostAtOnce(taskSpans(sim))).toBe(shown);
});

test.each([
	[{ pollInterval: 0.01 }, "'Check Interval'"],
	[{ initialDelay: -1 }, "'First Check After'"],
	[{ maxWaitTime: 0 }, "'Max Wait Time'"],
	[{ binaryPropertyName: ' ' }, "'Put Output File in Field'"],
])('bad wait options %j are refused before the submit', async (options, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), generateAndWait(options), message);
});

test('the wait logs each status the task moves through, once', async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 600 });
	// On the virtual clock: the task is still working at the first looks, however busy the machine.
	const result = await runOnVirtualClock(() =>
		runWorkflow({ credentials: credentialsFor(sim), nodes: [generateAndWait()] }),
	);

	const [taskId] = [...sim.tasks.keys()];
	const statusLines = result.logs
		.filter(
			(line) => line.level === 'info' && line.message.startsWith(`Product Image: task ${taskId}`),
		)
		.map((line) => line.message);
	expect(statusLines[statusLines.length - 1]).toBe(`Product Image: task ${taskId} is "succeeded"`);
	expect(new Set(statusLines).size).toBe(statusLines.length);
	expect(statusLines.length).toBeGreaterThanOrEqual(2);
	expect(sim.tasks.get(taskId)!.queries).toBeGreaterThan(statusLines.length);
});

test('a task that reports an empty error object while it runs is waited for, not failed', async () => {
	const sim = simulator();
	sim.configure({ emptyErrorObject: true, taskDurationMs: 400 });
	// On the virtual clock: the task is still working at the first looks, however busy the machine.
	const result = await runOnVirtualClock(() =>
		runWorkflow({ credentials: credentialsFor(sim), nodes: [generateAndWait()] }),
	);

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json.status).toBe('succeeded');
	const [task] = [...sim.tasks.values()];
	expect(task.queries).toBeGreaterThan(1);
});

test('Aspect Ratio → Other (61:25) and Resolution → Other (2K) send the typed values; the image comes at that shape', async () => {
	const sim = simulator();
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					typeVersion: DEFAULT_VERSION,
					parameters: {
						resource: 'image',
						operation: 'generateAndWait',
						prompt: 'banner of the bottle',
						size: 'custom',
						customSize: '61:25',
						resolution: 'custom',
						customResolution: '2K',
						options: currentVersionOptions(fast),
					},
				},
			],
		}),
	);

	expect(result.error).toBeUndefined();
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({ size: '61:25', resolution: '2k' });
	expect(result.items).toHaveLength(1);
	// 2k is a long side of 512 px on the simulator: 61:25 makes it 512 × 210.
	const png = readPngInfo(await binaryBytes(result, result.items[0]));
	expect([png.width, png.height]).toEqual([512, 210]);
});

test('Images From Files of the Input Item: each file is uploaded and sent as a source image', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generateAndWait({}, { prompt: '', imageSource: 'binary', inputBinaryFields: 'front, side' }),
		],
		input: [photoItem(['front', 'side'])],
	});

	expect(result.error).toBeUndefined();
	expect(sim.stats.byRoute.upload).toBe(2);
	const [task] = [...sim.tasks.values()];
	const sent = task.body.image_urls as string[];
	expect(sent).toHaveLength(2);
	expect(sent.every((url) => url.startsWith(`${sim.baseUrl}/v1/open/media/`))).toBe(true);
	expect(result.items[0].binary?.data.mimeType).toBe('image/png');
});

test('Selected Fields outputs the fields chosen and the task ID; the image files stay', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generateAndWait({}, { output: 'selected', outputFields: ['status', 'generated_width'] }),
		],
	});

	expect(result.error).toBeUndefined();
	const [taskId] = [...sim.tasks.keys()];
	const { json, binary } = result.items[0];
	expect(json).toEqual({
		task_id: taskId,
		status: 'succeeded',
		generated_width: expect.any(Number),
	});
	expect(binary?.data.mimeType).toBe('image/png');
});
