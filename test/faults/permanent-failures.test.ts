import { DEFAULT_VERSION } from '../../nodes/ProductImage/descriptions/versions';
import { readPngInfo } from '../simulator';
import { binaryBytes } from '../harness/engine';
import { pairedIndexes, photoItem } from '../harness/fixtures';
import { useSimulator } from '../harness/simulator';
import { runOnVirtualClock } from '../harness/virtualClock';
import {
	analyze,
	download,
	generate,
	generateAndWait,
	plan,
	PROMPT_FROM_ITEM,
	promptItems,
	requestsOn,
	retriesLogged,
	run,
	seedTask,
	taskGet,
	taskWait,
	FAULT_SIMULATOR,
	expectSubmitUnsureAdvice,
} from './faultCase';
import { finishCase } from './faultTable';
import { keyLeaks } from './keyScan';

const simulator = useSimulator(FAULT_SIMULATOR);

/** Fail fast: no retry was logged and the route saw exactly one request. */
function expectOneAttempt(
	sim: ReturnType<typeof simulator>,
	route: string,
	result: Awaited<ReturnType<typeof run>>,
) {
	expect(requestsOn(sim, route)).toHaveLength(1);
	expect(retriesLogged(result)).toBe(0);
}

test('a wrong API key fails at the first request and says to check the credential', async () => {
	const sim = simulator();
	const wrongKey = 'sk-live-wrong-5a4b3c2d1e0f9988';
	const result = await run(
		{ baseUrl: sim.baseUrl, apiKey: wrongKey },
		{ nodes: [{ parameters: generateAndWait() }] },
	);

	expect(result.error?.message).toBe('The service rejected the API key [item 0]');
	expect(result.error?.description).toMatch(
		/^The reply said: "Invalid or missing API key"\. Request ID: req_\w+\. Check the API key in the Product Image API credential\.$/,
	);
	expect(result.error?.httpCode).toBe('401');
	expectOneAttempt(sim, 'submit', result);
	expect(sim.stats.submitsAccepted).toBe(0);
	expect(keyLeaks(result, wrongKey)).toEqual([]);
	finishCase(sim, result, {
		case: '401 wrong key',
		operation: 'image/generateAndWait',
		injected: 'credential with a wrong key',
	});
});

test('an unknown task id on Task → Get fails fast and says how long tasks are kept', async () => {
	const sim = simulator();
	const result = await run(sim, {
		nodes: [{ parameters: taskGet('task_0000000000000000deadbeef') }],
	});

	expect(result.error?.message).toBe('The service does not know this task [item 0]');
	expect(result.error?.description).toMatch(/^The reply said: "Task not found"\. Request ID: req_/);
	expect(result.error?.description).toContain('does not know this task ID');
	expect(result.error?.description).toContain('3 days');
	expectOneAttempt(sim, 'task', result);
	finishCase(sim, result, {
		case: '404 unknown task',
		operation: 'task/get',
		injected: 'task id the service does not know',
	});
});

test('an unknown task id on Task → Wait fails at the first query, not at Max Wait Time', async () => {
	const sim = simulator();
	const result = await runOnVirtualClock(() =>
		run(sim, {
			nodes: [{ parameters: taskWait('task_0000000000000000deadbeef', { maxWaitTime: 30 }) }],
		}),
	);

	expect(result.error?.message).toMatch(/^The service does not know this task/);
	expect(result.error?.context?.taskId).toBe('task_0000000000000000deadbeef');
	expectOneAttempt(sim, 'task', result);
	// On the virtual clock: not a moment of the 30 s waited.
	expect(result.durationMs).toBe(0);
	finishCase(sim, result, {
		case: '404 unknown task',
		operation: 'task/wait',
		injected: 'task id the service does not know',
	});
});

test('a 400 on submit names the service complaint, creates nothing and is not retried', async () => {
	const sim = simulator();
	const result = await run(sim, {
		nodes: [{ parameters: generateAndWait({}, { resolution: '8k' }) }],
	});

	expect(result.error?.message).toBe('The service refused the generation request [item 0]');
	expect(result.error?.description).toMatch(
		/^The reply said: "resolution must be one of 1k, 2k, 4k, got "8k""\. Request ID: req_\w+\. /,
	);
	// The service's field name is said as the panel's label.
	expect(result.error?.description).toContain(
		"The service refused 'Resolution'. Change it and run the item again; nothing was billed.",
	);
	expectOneAttempt(sim, 'submit', result);
	expect(sim.stats.submitsAccepted).toBe(0);
	finishCase(sim, result, {
		case: '400 on submit',
		operation: 'image/generateAndWait',
		injected: 'resolution 8k (service refuses)',
	});
});

describe('a refused submit names the refused field by its panel label', () => {
	// Every field of a generation request the service may refuse, in words that name it (the
	// simulator's own checks pass whatever the node sends: these are the refusals of a service with
	// stricter rules), and the label the item's version shows for it.
	const CURRENT: Array<[string, string, string]> = [
		['prompt', 'prompt must be at most 2000 characters', 'Prompt'],
		['image_urls', 'image_urls[0] could not be fetched', 'Image URLs'],
		['size', 'size 61:25 is not supported', 'Aspect Ratio'],
		['resolution', 'resolution must be one of 1k, 2k, got "4k"', 'Resolution'],
		['output_language', 'output_language xx-yy is not supported', 'Output Language'],
		['product_info.name', 'product_info.name must be at most 200 characters', 'Product Name'],
		['product_info.sellingPoints', 'product_info.sellingPoints is too long', 'Selling Points'],
		['product_info.platform', 'product_info.platform must be one of amazon, shopify', 'Platform'],
		['plan_prompt', 'plan_prompt must be at most 4000 characters', 'Module Prompt'],
		['series_style_guide', 'series_style_guide is too long', 'Style Guide'],
	];
	const VERSION_1: Array<[string, string, string]> = [
		['size', 'size 61:25 is not supported', 'Size'],
		['plan_prompt', 'plan_prompt must be at most 4000 characters', 'Plan Prompt'],
		['series_style_guide', 'series_style_guide is too long', 'Series Style Guide'],
	];

	test.each([
		...CURRENT.map(([field, said, label]) => [DEFAULT_VERSION, field, said, label] as const),
		...VERSION_1.map(([field, said, label]) => [1, field, said, label] as const),
	])('version %s: a refused %s ("%s") names %s', async (typeVersion, _field, said, label) => {
		const sim = simulator();
		sim.addFault({ route: 'submit', status: 400, message: said });
		const result = await run(sim, { nodes: [{ typeVersion, parameters: generate() }] });

		expect(result.error?.message).toBe('The service refused the generation request [item 0]');
		expect(result.error?.description).toMatch(/^The reply said: "/);
		expect(result.error?.description).toContain(
			`The service refused '${label}'. Change it and run the item again; nothing was billed.`,
		);
		expectOneAttempt(sim, 'submit', result);
	});

	test.each([
		[DEFAULT_VERSION, 'Other Service Fields'],
		[1, 'Extra Body Fields'],
	])(
		'version %s: words that name no field point to the fields set and to %s',
		async (typeVersion, otherFields) => {
			const sim = simulator();
			sim.addFault({ route: 'submit', status: 400, message: 'the request is not valid' });
			const result = await run(sim, { nodes: [{ typeVersion, parameters: generate() }] });

			expect(result.error?.message).toBe('The service refused the generation request [item 0]');
			expect(result.error?.description).toMatch(
				new RegExp(
					`^The reply said: "the request is not valid"\\. Request ID: req_\\w+\\. The service refused a value this node sent; its words above say which\\. Check the fields set on this node, and '${otherFields}' if used\\.$`,
				),
			);
			expectOneAttempt(sim, 'submit', result);
		},
	);
});

test('Continue On Fail: a 400 on one item leaves the other items and their order intact', async () => {
	const sim = simulator();
	const input = [
		{ json: { prompt: 'item 0', resolution: '1k' } },
		{ json: { prompt: 'item 1', resolution: '8k' } },
		{ json: { prompt: 'item 2', resolution: '2k' } },
	];
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait(
					{ maxConcurrency: 3 },
					{ prompt: PROMPT_FROM_ITEM, resolution: '={{ $json.resolution }}' },
				),
				continueOnFail: true,
			},
		],
		input,
	});

	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(result.items[1].json).toMatchObject({ httpCode: '400', serviceCode: 400 });
	expect(result.items[1].json.error).toBe('The service refused the generation request');
	expect(String(result.items[1].json.description)).toContain('resolution must be one of');
	for (const index of [0, 2]) {
		expect(result.items[index].binary?.data).toBeDefined();
		expect(sim.tasks.get(String(result.items[index].json.task_id))?.body.prompt).toBe(
			`item ${index}`,
		);
	}
	expect(requestsOn(sim, 'submit')).toHaveLength(3);
	expect(sim.stats.submitsAccepted).toBe(2);
	finishCase(sim, result, {
		case: '400 on 1 of 3 items, Continue On Fail',
		operation: 'image/generateAndWait',
		injected: 'item 1: resolution 8k',
		inputCount: 3,
	});
});

test('a 415 on upload says which file types the service takes', async () => {
	const sim = simulator();
	const item = photoItem();
	item.binary!.data = {
		...item.binary!.data,
		mimeType: 'text/plain',
		fileName: 'notes.txt',
		fileExtension: 'txt',
	};
	const result = await run(sim, {
		nodes: [{ parameters: { resource: 'image', operation: 'upload', binaryPropertyName: 'data' } }],
		input: [item],
	});

	expect(result.error?.message).toBe('The service does not take this image type [item 0]');
	expect(result.error?.description).toMatch(
		/^The reply said: "Unsupported file type 'text\/plain'/,
	);
	expect(result.error?.description).toContain('JPEG, PNG or WebP');
	expectOneAttempt(sim, 'upload', result);
	expect(sim.uploads.size).toBe(0);
	finishCase(sim, result, {
		case: '415 on upload',
		operation: 'image/upload',
		injected: 'a text/plain file',
	});
});

test('a 413 on upload says to send a smaller file', async () => {
	const sim = simulator();
	sim.configure({ maxUploadBytes: 100 });
	const result = await run(sim, {
		nodes: [{ parameters: { resource: 'image', operation: 'upload', binaryPropertyName: 'data' } }],
		input: [photoItem()],
	});

	expect(result.error?.message).toBe('The image is too large for the service [item 0]');
	expect(result.error?.description).toMatch(/^The reply said: "File too large/);
	expect(result.error?.description).toContain('smaller file');
	expectOneAttempt(sim, 'upload', result);
	finishCase(sim, result, {
		case: '413 on upload',
		operation: 'image/upload',
		injected: 'upload limit 100 bytes',
	});
});

test.each([
	['analysis', 'analysis/analyze', 'analysis request'],
	['plan', 'aPlusPlan/create', 'A+ plan request'],
] as const)(
	'a 422 on %s is the service refusing the request: no retry',
	async (route, operation, label) => {
		const sim = simulator();
		sim.configure({ errorShape: 'nested' });
		sim.addFault({ route, status: 422 });
		const result = await run(sim, {
			nodes: [{ parameters: route === 'analysis' ? analyze(sim) : plan(sim) }],
		});

		expect(result.error?.message).toBe(`The service refused the ${label} [item 0]`);
		expect(result.error?.description).toMatch(
			/^The reply said: "Simulated 422" \(code validation_error\)\. Request ID: req_/,
		);
		// Its words name no field, and an analysis or a plan has no field for other service fields.
		expect(result.error?.description).toMatch(
			/ The service refused a value this node sent; its words above say which\. Check the fields set on this node\.$/,
		);
		expectOneAttempt(sim, route, result);
		finishCase(sim, result, {
			case: `422 on ${route}`,
			operation,
			injected: `${route}: 422 {error: {code, message}}`,
		});
	},
);

test('a failed task ends the wait at once with the reason, and is not submitted again', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'fail' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	const [task] = [...sim.tasks.values()];
	expect(result.error?.message).toBe('The service could not complete the task [item 0]');
	expect(result.error?.description).toContain(
		`Task ${task.task_id} ended with status "failed": The model could not render the product (simulated failure) (code generation_failed).`,
	);
	expect(result.error?.description).toContain('Change the prompt or the source images');
	expect(sim.stats.submitsAccepted).toBe(1);
	expect(requestsOn(sim, 'submit')).toHaveLength(1);
	// No query after the one that saw "failed".
	const failedAt = requestsOn(sim, 'task').findIndex(
		(entry) => entry.at >= task.createdAt + task.durationMs,
	);
	expect(requestsOn(sim, 'task')).toHaveLength(failedAt + 1);
	expect(sim.stats.byRoute.asset ?? 0).toBe(0);
	finishCase(sim, result, {
		case: 'failed task',
		operation: 'image/generateAndWait',
		injected: 'taskOutcome fail',
	});
});

test('Continue On Fail: failed tasks become error items with their task id, one per input item', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'fail' });
	const result = await run(sim, {
		nodes: [
			{
				parameters: generateAndWait({ maxConcurrency: 2 }, { prompt: PROMPT_FROM_ITEM }),
				continueOnFail: true,
			},
		],
		input: promptItems(3),
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	for (const [index, item] of result.items.entries()) {
		expect(sim.tasks.get(String(item.json.taskId))?.body.prompt).toBe(`item ${index}`);
		expect(item.json.error).toBe('The service could not complete the task');
		expect(String(item.json.description)).toContain(
			`Task ${item.json.taskId} ended with status "failed"`,
		);
		expect(String(item.json.requestId)).toMatch(/^req_/);
		// The query that saw the failure was answered 200: no HTTP code belongs on the item. The
		// service's own word failed the task: its outcome is final. The input item's own field
		// rides along, as on a generated item (Include Other Input Fields).
		expect(Object.keys(item.json).sort()).toEqual([
			'description',
			'error',
			'outcome',
			'prompt',
			'requestId',
			'taskId',
		]);
		expect(item.json.prompt).toBe(`item ${index}`);
		expect(item.json.outcome).toBe('final');
	}
	expect(sim.stats.submitsAccepted).toBe(3);
	finishCase(sim, result, {
		case: 'failed tasks, Continue On Fail',
		operation: 'image/generateAndWait',
		injected: 'taskOutcome fail',
		inputCount: 3,
	});
});

test('a task that never ends gives up at Max Wait Time, naming the task so the wait can be resumed', async () => {
	const sim = simulator();
	sim.configure({ taskOutcome: 'never' });
	const result = await runOnVirtualClock(() =>
		run(sim, { nodes: [{ parameters: generateAndWait({ maxWaitTime: 0.6 }) }] }),
	);

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe('The task did not finish within 0.6 s [item 0]');
	expect(result.error?.description).toContain('Its last status was "processing".');
	expect(result.error?.description).toContain('Wait for Completion');
	expect(result.error?.description).toContain(taskId);
	expect(sim.stats.submitsAccepted).toBe(1);
	// On the virtual clock: polls every 0.1 s from the submit; the last that fits is at 0.6 s.
	expect(requestsOn(sim, 'task').map((poll) => poll.at - requestsOn(sim, 'submit')[0].at)).toEqual([
		0, 100, 200, 300, 400, 500, 600,
	]);
	expect(result.durationMs).toBe(600);
	finishCase(sim, result, {
		case: 'never-ending task',
		operation: 'image/generateAndWait',
		injected: 'taskOutcome never, Max Wait Time 0.6 s',
		bounded: { task: 8 },
	});
});

test('an expired result address (410) fails at the first download and says to generate again', async () => {
	const sim = simulator();
	sim.configure({ expireAfterMs: 1 });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe('The image URL no longer exists [item 0]');
	expect(result.error?.description).toMatch(/^The reply said: "The asset address has expired/);
	expect(result.error?.description).toContain('Generate the image again');
	expect(result.error?.description).toContain(`Task ID: ${taskId}.`);
	expect(result.error?.context?.taskId).toBe(taskId);
	expectOneAttempt(sim, 'asset', result);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'expired result address',
		operation: 'image/generateAndWait',
		injected: 'asset: 410 (expireAfterMs 1)',
	});
});

test('an expired address on Image → Download fails fast', async () => {
	const sim = simulator();
	const { url } = await seedTask(sim);
	sim.configure({ expireAfterMs: 1 });
	const result = await run(sim, { nodes: [{ parameters: download(url) }] });

	expect(result.error?.message).toMatch(/^The image URL no longer exists/);
	expect(result.error?.description).toContain('kept at most 3 days');
	expectOneAttempt(sim, 'asset', result);
	finishCase(sim, result, {
		case: 'expired address',
		operation: 'image/download',
		injected: 'asset: 410',
	});
});

test('an expired pre-signed cdn address fails fast without the key reaching the cdn', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'cdn', expireAfterMs: 1 });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	// The storage service's XML error reads as its code and message, not as markup.
	expect(result.error?.message).toBe('The image URL no longer exists [item 0]');
	expect(result.error?.description).toMatch(/^The reply said: "AccessDenied: Request has expired/);
	expect(result.error?.description).not.toMatch(/[<>]/);
	expect(result.error?.description).toContain('Generate the image again');
	expectOneAttempt(sim, 'cdn', result);
	expect(requestsOn(sim, 'cdn')[0].authorization).toBeUndefined();
	finishCase(sim, result, {
		case: 'expired cdn address',
		operation: 'image/generateAndWait',
		injected: 'cdn: 410 XML',
	});
});

test('malformed JSON on a task query fails fast and points at the Base URL', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', body: 'malformed' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	const [taskId] = [...sim.tasks.keys()];
	expect(result.error?.message).toBe("The service's reply could not be read [item 0]");
	expect(result.error?.description).toContain(taskId);
	expect(result.error?.description).toContain('not what the service sends');
	expectOneAttempt(sim, 'task', result);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'malformed JSON on task query',
		operation: 'image/generateAndWait',
		injected: 'task: 200 {"code":200,"data":{',
	});
});

test('malformed JSON on submit after the service took it is not retried and warns against a resubmit', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', body: 'malformed', acceptSubmit: true });
	const result = await run(sim, { nodes: [{ parameters: generate() }] });

	expect(result.error?.message).toBe("The service's reply could not be read [item 0]");
	expectSubmitUnsureAdvice(result.error?.description);
	expectOneAttempt(sim, 'submit', result);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: 'malformed JSON on submit (task taken)',
		operation: 'image/generate',
		injected: 'submit: 200 truncated JSON, acceptSubmit',
	});
});

test('malformed JSON on analysis fails fast', async () => {
	const sim = simulator();
	sim.addFault({ route: 'analysis', body: 'malformed' });
	const result = await run(sim, { nodes: [{ parameters: analyze(sim) }] });

	expect(result.error?.message).toBe("The service's reply could not be read [item 0]");
	expectOneAttempt(sim, 'analysis', result);
	finishCase(sim, result, {
		case: 'malformed JSON on analysis',
		operation: 'analysis/analyze',
		injected: 'analysis: 200 truncated JSON',
	});
});

test('an HTML page with status 200 on a task query (wrong Base URL) fails fast', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 200, body: 'html' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe('A web page answered instead of the service [item 0]');
	expect(result.error?.description).toMatch(/^The reply said: "200 OK"\./);
	expect(result.error?.description).toContain('Base URL');
	expectOneAttempt(sim, 'task', result);
	finishCase(sim, result, {
		case: 'HTML page 200 on task query',
		operation: 'image/generateAndWait',
		injected: 'task: 200 text/html',
	});
});

test('an HTML 404 page on analysis fails fast and says a web page answered', async () => {
	const sim = simulator();
	sim.addFault({ route: 'analysis', status: 404, body: 'html' });
	const result = await run(sim, { nodes: [{ parameters: analyze(sim) }] });

	expect(result.error?.message).toBe("Nothing at 'Base URL' answers this request [item 0]");
	expect(result.error?.description).toMatch(
		/^The reply said: "404 Not Found"\. Request ID: req_[0-9a-f]+\. /,
	);
	expect(result.error?.description).toContain('A web page answered instead of the service');
	expectOneAttempt(sim, 'analysis', result);
	finishCase(sim, result, {
		case: 'HTML 404 page on analysis',
		operation: 'analysis/analyze',
		injected: 'analysis: 404 text/html',
	});
});

test('a sign-in page answered 200 for a result image is an error naming the address, status, type and title', async () => {
	const sim = simulator();
	sim.addFault({ route: 'asset', body: 'signIn' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe('The URL returned a web page, not an image [item 0]');
	const description = String(result.error?.description);
	expect(description).toMatch(
		/^http:\/\/127\.0\.0\.1:\d+\/v1\/open\/assets\/\S+ answered HTTP 200 with text\/html\. The reply said: "Sign in to continue/,
	);
	expect(result.error?.description).toContain('instead of image bytes');
	expect(result.error?.context?.transient).toBeUndefined();
	expect(result.items).toHaveLength(0);
	expectOneAttempt(sim, 'asset', result);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: '200 HTML page for a result image',
		operation: 'image/generateAndWait',
		injected: 'asset: 200 sign-in page (text/html)',
	});
});

test('a JSON body answered 200 for an image address is an error, not a file', async () => {
	const sim = simulator();
	const { url } = await seedTask(sim);
	sim.addFault({ route: 'asset', status: 200, body: 'error' });
	const result = await run(sim, { nodes: [{ parameters: download(url) }] });

	expect(result.error?.message).toBe('The URL returned something other than an image [item 0]');
	expect(result.error?.description).toMatch(
		/^http:\/\/127\.0\.0\.1:\d+\/v1\/open\/assets\/\S+ answered HTTP 200 with application\/json\. The reply said: "Simulated 200/,
	);
	expect(result.items).toHaveLength(0);
	expectOneAttempt(sim, 'asset', result);
	finishCase(sim, result, {
		case: '200 JSON body for an image',
		operation: 'image/download',
		injected: 'asset: 200 JSON envelope',
	});
});

test.each([
	[
		'a sign-in page as application/octet-stream',
		{ body: 'signIn', contentType: 'application/octet-stream' },
		'application/octet-stream',
	],
	[
		'a JSON body without a content type',
		{ status: 200, body: 'error', contentType: '' },
		'no content type',
	],
] as const)('%s is recognised by its first bytes', async (label, fault, shownType) => {
	const sim = simulator();
	const { url } = await seedTask(sim);
	sim.addFault({ route: 'asset', ...fault });
	const result = await run(sim, { nodes: [{ parameters: download(url) }] });

	expect(result.error?.message).toMatch(
		/^The URL returned (a web page|something other than an image)/,
	);
	expect(result.error?.description).toContain(`answered HTTP 200 with ${shownType}.`);
	expect(result.items).toHaveLength(0);
	expectOneAttempt(sim, 'asset', result);
	finishCase(sim, result, {
		case: `200 ${label}`,
		operation: 'image/download',
		injected: `asset: 200, ${label}`,
	});
});

test.each(['memory', 'filesystem'] as const)(
	'a real image served as application/octet-stream, or with no type, still arrives whole (%s binary mode)',
	async (binaryMode) => {
		const sim = simulator();
		const { url } = await seedTask(sim);
		for (const contentType of ['application/octet-stream', '']) {
			sim.addFault({ route: 'asset', contentType });
			const result = await run(sim, { nodes: [{ parameters: download(url) }], binaryMode });
			expect(result.error).toBeUndefined();
			const binary = result.items[0].binary?.data;
			expect(binary?.mimeType).toBe('image/png');
			expect(readPngInfo(await binaryBytes(result, result.items[0])).width).toBe(256);
		}
		expect(requestsOn(sim, 'asset')).toHaveLength(2);
	},
);

test('a submit answered 200 without a task id says the task may exist and which request id to quote', async () => {
	const sim = simulator();
	sim.addFault({ route: 'submit', status: 200, body: 'error', acceptSubmit: true });
	const result = await run(sim, { nodes: [{ parameters: generate() }] });

	expect(result.error?.message).toBe(
		"The service's reply to the generation request lacks fields this node needs [item 0]",
	);
	expect(result.error?.description).toMatch(/^Missing or unexpected: task_id: Required\. /);
	expect(result.error?.description).toMatch(
		/give the service's provider the request ID req_[0-9a-f]+,/,
	);
	expect(result.error?.description).toContain('The reply holds no task ID.');
	expectSubmitUnsureAdvice(result.error?.description);
	expectOneAttempt(sim, 'submit', result);
	expect(sim.stats.submitsAccepted).toBe(1);
	finishCase(sim, result, {
		case: '200 without task_id (task taken)',
		operation: 'image/generate',
		injected: 'submit: 200 envelope without task_id, acceptSubmit',
	});
});
