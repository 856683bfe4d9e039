import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { startForeignOrigin } from '../../simulator/foreign-origins';

const simulator = useSimulator();

const submit = { parameters: { resource: 'image', operation: 'generate', prompt: 'a mug' } };

test('task/get outputs the task as the service returns it', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			submit,
			{ parameters: { resource: 'task', operation: 'get', taskId: '={{ $json.task_id }}' } },
		],
	});

	expect(result.error).toBeUndefined();
	const [taskId] = [...sim.tasks.keys()];
	expect(result.items[0].json).toMatchObject({ task_id: taskId, error: null });
	expect(['submitted', 'queued', 'processing', 'succeeded']).toContain(result.items[0].json.status);
	expect(typeof result.items[0].json.created_at).toBe('string');
});

test('task/get of an unknown task says the id is unknown and that tasks are kept 3 days', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ parameters: { resource: 'task', operation: 'get', taskId: 'task_missing' } }],
	});

	expect(result.error?.message).toBe('The service does not know this task [item 0]');
	expect(result.error?.description).toMatch(
		/^The reply said: "Task not found"\. Request ID: req_\w+\./,
	);
	expect(result.error?.description).toContain('kept at most 3 days');
	expect(result.error?.context?.taskId).toBe('task_missing');
	expect(sim.stats.byRoute.task).toBe(1);
});

test.each(['task_1/../../uploads', 'task?x=1', '../admin', '  '])(
	'task id %j that could leave the request path is refused before any request',
	async (taskId) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ parameters: { resource: 'task', operation: 'get', taskId } }],
		});

		expect(result.error?.message).toContain("'Task ID'");
		expect(sim.stats.requests).toHaveLength(0);
	},
);

test('a Base URL that redirects API calls fails naming the redirect, and the key goes no further', async () => {
	const sim = simulator();
	const redirecting = await startForeignOrigin('redirect', { redirectTo: sim.baseUrl });
	try {
		const result = await runWorkflow({
			credentials: { baseUrl: redirecting.baseUrl, apiKey: sim.apiKey },
			nodes: [{ parameters: { resource: 'task', operation: 'get', taskId: 'task_1' } }],
		});

		expect(result.error?.message).toBe('The service redirected the status check [item 0]');
		expect(result.error?.description).toBe(
			`It pointed to ${sim.baseUrl}/v1/open/tasks/task_1. The service redirected an API call. Check 'Base URL' (http vs https, missing path).`,
		);
		expect(redirecting.requests).toHaveLength(1);
		expect(sim.stats.requests).toHaveLength(0);
	} finally {
		await redirecting.close();
	}
});

test('a 429 storm on Task → Get, which runs one item at a time, advises a pause between items', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 429, retryAfter: '0', times: Infinity });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ parameters: { resource: 'task', operation: 'get', taskId: 'task_1' } }],
	});

	expect(result.error?.message).toBe('The service asked to slow down [item 0]');
	// No option sets how many items run at once here: the advice names none.
	expect(result.error?.description).toMatch(
		/ The service is rate-limiting requests\. It was tried 5 times\. Add a Wait node before this one, or use Loop Over Items with a pause\.$/,
	);
	expect(sim.stats.byRoute.task).toBe(5);
});

describe('Output', () => {
	/** A task that has finished, and the URL of its image. */
	async function finishedTask(sim: ReturnType<typeof simulator>) {
		const generated = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					parameters: {
						resource: 'image',
						operation: 'generateAndWait',
						prompt: 'a mug',
						options: {
							waiting: { value: { initialDelay: 0, pollInterval: 0.1 } },
							outputFiles: { value: { downloadImages: false } },
						},
					},
				},
			],
		});
		const { task_id: taskId, url } = generated.items[0].json;
		return { taskId: String(taskId), url };
	}

	const get = (taskId: string, output: Record<string, unknown>) => ({
		parameters: { resource: 'task', operation: 'get', taskId, ...output },
	});

	test('Simplified keeps the task ID and its status, with the image URLs as one list', async () => {
		const sim = simulator();
		const { taskId, url } = await finishedTask(sim);
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [get(taskId, { output: 'simplified' })],
		});

		expect(result.error).toBeUndefined();
		const { json } = result.items[0];
		expect(json).toMatchObject({ task_id: taskId, status: 'succeeded', image_urls: [url] });
		expect(typeof json.created_at).toBe('string');
		expect(typeof json.completed_at).toBe('string');
		expect(json).not.toHaveProperty('result');
	});

	test('Selected Fields outputs the fields chosen, and the task ID', async () => {
		const sim = simulator();
		const { taskId, url } = await finishedTask(sim);
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [get(taskId, { output: 'selected', outputFields: ['status', 'image_urls'] })],
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].json).toEqual({
			task_id: taskId,
			status: 'succeeded',
			image_urls: [url],
		});
	});
});

describe('Task ID takes more than the bare ID', () => {
	test.each([
		['a pasted task URL', (id: string, base: string) => `${base}/v1/open/tasks/${id}`],
		['a dragged task item', (id: string) => `={{ { "task_id": "${id}", "status": "submitted" } }}`],
	])('%s', async (_, taskIdFor) => {
		const sim = simulator();
		const submitted = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ parameters: { resource: 'image', operation: 'generate', prompt: 'x' } }],
		});
		const id = String(submitted.items[0].json.task_id);
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					parameters: { resource: 'task', operation: 'get', taskId: taskIdFor(id, sim.baseUrl) },
				},
			],
		});
		expect(result.error).toBeUndefined();
		expect(result.items[0].json.task_id).toBe(id);
	});
});
