import { readPngInfo } from '../simulator';
import { pairedIndexes } from '../harness/fixtures';
import { binaryBytes, runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { startForeignOrigin } from '../simulator/foreign-origins';

const simulator = useSimulator();

const submit = { parameters: { resource: 'image', operation: 'generate', prompt: 'a mug' } };
const generateAndWait = {
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'x',
		options: { initialDelay: 0, pollInterval: 0.1 },
	},
};

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

test('task/wait resumes a known task and downloads its images like Generate and Wait', async () => {
	const sim = simulator();
	sim.configure({ imagesPerTask: 2 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			submit,
			{
				parameters: {
					resource: 'task',
					operation: 'wait',
					taskId: '={{ $json.task_id }}',
					options: { initialDelay: 0, pollInterval: 0.1, binaryPropertyName: 'image' },
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(2);
	expect(pairedIndexes(result.items)).toEqual([0, 0]);
	const png = readPngInfo(await binaryBytes(result, result.items[1], 'image'));
	expect(png.width).toBe(png.height);
	expect(sim.stats.submitsAccepted).toBe(1);
});

test('image/download streams an address into a binary field, with the MIME type of the reply', async () => {
	const sim = simulator();
	const seeded = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt: 'x',
					options: { initialDelay: 0, pollInterval: 0.1, downloadImages: false },
				},
			},
		],
	});
	const address = String(seeded.items[0].json.url);

	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'download',
					url: address,
					options: { binaryPropertyName: 'photo', fileName: 'hero.png' },
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	const binary = result.items[0].binary?.photo;
	expect(binary?.mimeType).toBe('image/png');
	expect(binary?.fileName).toBe('hero.png');
	expect(result.items[0].json).toMatchObject({
		url: address,
		fileName: 'hero.png',
		mimeType: 'image/png',
	});
	expect(readPngInfo(await binaryBytes(result, result.items[0], 'photo')).width).toBeGreaterThan(0);
});

test.each(['javascript:alert(1)', 'file:///etc/hosts', 'not a url'])(
	'image/download refuses %j before any request',
	async (url) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ parameters: { resource: 'image', operation: 'download', url } }],
		});

		expect(result.error?.message).toContain("'URL'");
		expect(sim.stats.requests).toHaveLength(0);
	},
);

test('downloads from another origin carry no Authorization header, also after a redirect', async () => {
	const sim = simulator();
	for (const downloads of ['cdn', 'redirect'] as const) {
		sim.reset();
		sim.configure({ downloads });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait],
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data.mimeType).toBe('image/png');
		const cdnRequests = sim.stats.requests.filter((entry) => entry.origin === 'cdn');
		expect(cdnRequests.length).toBeGreaterThan(0);
		expect(cdnRequests.every((entry) => entry.authorization === undefined)).toBe(true);
		expect(sim.stats.cdnAuthRejected).toBe(0);
	}
});

test('API calls ask for JSON and downloads for an image; only a submit carries the request id the node made', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'redirect' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait],
	});

	expect(result.error).toBeUndefined();
	const seen = (route: string) => sim.stats.requests.filter((entry) => entry.route === route);
	expect(
		seen('submit').map(({ accept, requestIdHeader }) => ({ accept, requestIdHeader })),
	).toEqual([
		{ accept: 'application/json', requestIdHeader: expect.stringMatching(/^n8n-[0-9a-f-]{36}$/) },
	]);
	expect(seen('task').length).toBeGreaterThan(0);
	for (const entry of seen('task')) {
		expect(entry).toMatchObject({ accept: 'application/json' });
		expect(entry.requestIdHeader).toBeUndefined();
	}
	// The download asks the service, is redirected to the cdn, and asks there again.
	expect([...seen('asset'), ...seen('cdn')].map(({ accept }) => accept)).toEqual([
		'image/*, */*',
		'image/*, */*',
	]);
});

test('a download redirected to a host that refuses it (403) blames that host, not the key', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'redirect' });
	sim.addFault({ route: 'cdn', status: 403 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait],
	});

	const cdnHost = new URL(sim.cdnUrl).host;
	expect(result.error?.message).toBe(`${cdnHost} refused the image download [item 0]`);
	expect(result.error?.httpCode).toBe('403');
	expect(result.error?.description).toContain(
		`${cdnHost} refused the download (HTTP 403). The API key goes to the service's host only`,
	);
});

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
