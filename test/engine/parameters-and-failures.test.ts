import type { INodeParameters } from 'n8n-workflow';
import type { RequestRecord } from '../simulator';
import { currentVersionOptions, pairedIndexes, photoItem } from '../harness/fixtures';
import { runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { runOnVirtualClock } from '../harness/virtualClock';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';

/** How many requests of a route were open at once, seen as each one arrived. */
const openAtArrival: Record<string, number[]> = {};
const simulator = useSimulator({
	onRequest: (record: RequestRecord) => {
		const sim = simulator();
		const open = sim.stats.requests.filter(
			(other) => other.route === record.route && other.status === 0,
		).length;
		(openAtArrival[record.route] ??= []).push(open);
	},
});

beforeEach(() => {
	for (const route of Object.keys(openAtArrival)) delete openAtArrival[route];
});

const products = ['red', 'green', 'blue', 'black'].map((color, index) => ({
	json: { color, size: index === 3 ? '16x9' : '1:1' },
}));

/** Options written flat, as version 1 stores them; the current version's are bundled from them. */
const generateAndWait = (options: Record<string, unknown> = {}, typeVersion = CURRENT) => {
	const flat = { initialDelay: 0, pollInterval: 0.1, ...options };
	return {
		typeVersion,
		parameters: {
			resource: 'image',
			operation: 'generateAndWait',
			prompt: '={{ "a " + $json.color + " bottle" }}',
			size: '={{ $json.size }}',
			options: typeVersion === 1 ? flat : currentVersionOptions(flat),
		},
	};
};

// Each version's label of the aspect ratio: version 1 shows 'Size'.
describe.each([
	[CURRENT, 'Aspect Ratio'],
	[1, 'Size'],
])('a bad Aspect Ratio (version %i, labelled %s)', (typeVersion, label) => {
	test('a bad parameter on the last item is refused before any item sends a request', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({}, typeVersion)],
			input: products,
		});

		// n8n's guidelines: the parameter named in single quotation marks, the item at the end of the
		// title in n8n's form, and nothing an HTML toast would take for a tag.
		expect(result.error?.message).toBe(
			`'${label}': must be an aspect ratio width:height, such as 1:1 or 16:9 [item 3]`,
		);
		// What the expression gave is not in the panel: the description quotes it.
		expect(result.error?.description).toBe(
			`'${label}' is "16x9" for this item. Change '${label}' in the node's parameters. No request was sent.`,
		);
		expect(result.error?.context?.itemIndex).toBe(3);
		expect(sim.stats.requests).toHaveLength(0);
	});

	test('a value in angle brackets reaches the title as look-alike quotation marks, not as a tag', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					...generateAndWait({}, typeVersion),
					parameters: { ...generateAndWait({}, typeVersion).parameters, imageUrls: '<photo>' },
				},
			],
			input: [products[0]],
		});

		expect(result.error?.message).toBe(`'Image URLs': "‹photo›" is not an http(s) URL [item 0]`);
		expect(sim.stats.requests).toHaveLength(0);
	});

	test('the value quoted in the description keeps its angle brackets as look-alikes, too', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({}, typeVersion)],
			input: [{ json: { color: 'red', size: '<wide>' } }],
		});

		expect(result.error?.description).toBe(
			`'${label}' is "‹wide›" for this item. Change '${label}' in the node's parameters. No request was sent.`,
		);
		expect(sim.stats.requests).toHaveLength(0);
	});

	test('with Continue On Fail the bad item becomes its error item and the others run', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ ...generateAndWait({}, typeVersion), continueOnFail: true }],
			input: products,
		});

		expect(result.error).toBeUndefined();
		expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3]);
		// The error item is paired with its input: its title names no item.
		expect(result.items[3].json.error).toBe(
			`'${label}': must be an aspect ratio width:height, such as 1:1 or 16:9`,
		);
		// Only what is known: a refused parameter has no HTTP status, request id, task or address.
		const unknown = ['httpCode', 'requestId', 'taskId', 'serviceCode', 'url'];
		expect(Object.keys(result.items[3].json).filter((key) => unknown.includes(key))).toEqual([]);
		expect(result.items.slice(0, 3).every((item) => item.json.status === 'succeeded')).toBe(true);
		expect(sim.stats.submitsAccepted).toBe(3);
	});
});

describe('an expression that refers to a node not in the workflow (one renamed or deleted)', () => {
	const node = (continueOnFail: boolean) => ({
		continueOnFail,
		parameters: {
			resource: 'image',
			operation: 'generate',
			prompt: '={{ $json.fromOtherNode ? $("Product Lookup").item.json.title : $json.title }}',
		},
	});
	const input = [{ json: { title: 'Mug' } }, { json: { title: 'Vase', fromOtherNode: true } }];

	test('stops the run naming the item', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [node(false)],
			input,
		});

		expect(result.error?.message).toBe("Referenced node doesn't exist [item 1]");
		expect(result.error?.context?.itemIndex).toBe(1);
	});

	test("with Continue On Fail is its item's error, with nothing the node does not know", async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [node(true)],
			input,
		});

		expect(result.error).toBeUndefined();
		expect(pairedIndexes(result.items)).toEqual([0, 1]);
		expect(result.items[0].json.task_id).toEqual(expect.any(String));
		expect(result.items[1].json.error).toBe("Referenced node doesn't exist");
		// A parameter that cannot be read sends nothing: running the item unchanged fails the same.
		// The product's own fields follow, as on a generated item (Include Other Input Fields).
		expect(result.items[1].json).toEqual({
			error: "Referenced node doesn't exist",
			outcome: 'final',
			title: 'Vase',
			fromOtherNode: true,
		});
		// No field without a value either: the next node lists an item's fields by name.
		expect(Object.keys(result.items[1].json)).toEqual([
			'error',
			'outcome',
			'title',
			'fromOtherNode',
		]);
		expect(sim.stats.submitsAccepted).toBe(1);
	});
});

test('after one item fails, no new submit starts, waits stop, and the error lists the accepted tasks', async () => {
	const sim = simulator();
	// Tasks that would outlast the test: only a stopped wait lets the run end.
	sim.configure({ taskDurationMs: 10 * 60_000 });
	sim.addFault({ route: 'submit', status: 400, body: 'error', delayMs: 300 });
	const input = products.slice(0, 3).concat({ json: { color: 'white', size: '1:1' } });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait({ maxConcurrency: 2, maxWaitTime: 900 })],
		input,
	});

	expect(result.error?.httpCode).toBe('400');
	const submits = sim.stats.requests.filter((request) => request.route === 'submit');
	expect(submits).toHaveLength(2);
	expect(sim.stats.submitsAccepted).toBe(1);
	const [taskId] = [...sim.tasks.keys()];
	const acceptedItem = [...sim.tasks.values()][0].body.prompt === 'a red bottle' ? 0 : 1;
	expect(result.error?.description).toContain(`item ${acceptedItem}: ${taskId}`);
	expect(result.error?.description).toContain(
		"they are billed, and their images stay at the service for 3 days. Collect the images with 'Task → Wait for Completion' and these task IDs instead of generating again, which would bill again.",
	);
	expect(result.error?.context?.acceptedTasks).toEqual([{ itemIndex: acceptedItem, taskId }]);
	// The wait stopped because another item failed, not because anyone cancelled: the log says
	// nothing of a cancel that did not happen.
	expect(result.logs.filter((line) => /cancel/i.test(line.message))).toEqual([]);
});

/** Two items side by side: item 0 a prompt alone, item 1 a prompt and a photo to upload first. */
function runPromptAndPhotoItems(sim: ReturnType<typeof simulator>) {
	return runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt: '={{ $json.prompt }}',
					imageSource: 'both',
					inputBinaryFields: '={{ $json.photo ? "data" : "" }}',
					options: currentVersionOptions({ initialDelay: 0, pollInterval: 0.1, maxConcurrency: 2 }),
				},
			},
		],
		input: [{ json: { prompt: 'item 0' } }, photoItem(['data'], { prompt: 'item 1', photo: true })],
	});
}

test('an item still uploading its photos when another item fails does not submit afterwards', async () => {
	const sim = simulator();
	// Item 0 has no photo and is refused at once; item 1's upload is still under way then.
	sim.addFault({ route: 'submit', status: 400, body: 'error' });
	sim.addFault({ route: 'upload', delayMs: 1_500 });
	// On the virtual clock, so "still uploading" holds however slowly the machine sends the submit.
	const result = await runOnVirtualClock(() => runPromptAndPhotoItems(sim));

	expect(result.error?.httpCode).toBe('400');
	const routes = sim.stats.requests.map((request) => request.route);
	expect(routes.filter((route) => route === 'upload')).toHaveLength(1);
	// The upload was answered after the refusal: item 1 had started, and only its submit was left.
	const refused = sim.stats.requests.find((request) => request.route === 'submit')!;
	const upload = sim.stats.requests.find((request) => request.route === 'upload')!;
	expect(upload.status).toBe(201);
	expect(refused.at - upload.at).toBeLessThan(1_500);
	expect(
		sim.stats.requests
			.filter((request) => request.route === 'submit')
			.map((request) => request.prompt),
	).toEqual(['item 0']);
	expect(sim.stats.submitsAccepted).toBe(0);
});

// A retry is a new request: once another item failed, the lane that waits out a pause sends
// nothing more. The pauses end seconds after the failure, so a retry sent after it would land.
test.each([
	{
		waiting: 'a submit waiting out a 429',
		fault: { route: 'submit', status: 429, retryAfter: '2' } as const,
		failsAfterMs: 500,
		route: 'submit',
		accepted: 0,
	},
	{
		waiting: "a task query waiting out a 503's Retry-After",
		fault: { route: 'task', status: 503, retryAfter: '5', times: Infinity } as const,
		failsAfterMs: 1_500,
		route: 'task',
		accepted: 1,
	},
])(
	'$waiting is not sent again once another item failed',
	async ({ fault, failsAfterMs, route, accepted }) => {
		const sim = simulator();
		sim.addFault(fault);
		// Item 1's photo is refused while item 0 waits out its pause.
		sim.addFault({ route: 'upload', status: 400, body: 'error', delayMs: failsAfterMs });
		const result = await runPromptAndPhotoItems(sim);

		expect(result.error?.message).toBe('The service refused the image upload [item 1]');
		expect(result.error?.description).toMatch(
			/^The reply said: "Simulated 400"\. Request ID: req_/,
		);
		const sent = sim.stats.requests.filter((request) => request.route === route);
		expect(sent.map((request) => request.status)).toEqual([fault.status]);
		expect(sim.stats.submitsAccepted).toBe(accepted);
		expect(result.error?.context?.acceptedTasks ?? []).toHaveLength(accepted);
	},
);

test('analysis runs its items up to Items in Parallel at once, never more, and keeps their order and pairing', async () => {
	const sim = simulator();
	// Replies held on the virtual clock: a wave's requests all arrive before the first is
	// answered, however busy the machine.
	sim.configure({ latencyMs: 1_000 });
	const input = ['one', 'two', 'three', 'four', 'five', 'six'].map((name) => ({ json: { name } }));
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					parameters: {
						resource: 'analysis',
						operation: 'analyze',
						productDetails: { productName: '={{ $json.name }}' },
						imageUrls: 'https://img.test/a,b.jpg',
						options: { maxConcurrency: 3 },
					},
				},
			],
			input,
		}),
	);

	expect(result.error).toBeUndefined();
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3, 4, 5]);
	expect(openAtArrival.analysis).toHaveLength(6);
	expect(Math.max(...openAtArrival.analysis)).toBe(3);
});

test('A+ planning with Items in Parallel 1 sends one request at a time', async () => {
	const sim = simulator();
	sim.configure({ latencyMs: 100 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'aPlusPlan',
					operation: 'create',
					imageUrls: 'https://img.test/a.jpg',
					modules: ['hero'],
					descriptionSource: 'define',
					productDescription: 'Steel bottle',
					planDetails: { language: { value: { language: 'custom', customLanguage: 'ZH-cn' } } },
					options: { maxConcurrency: 1, splitModules: false },
				},
			},
		],
		input: [{ json: {} }, { json: {} }, { json: {} }],
	});

	expect(result.error).toBeUndefined();
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(openAtArrival.plan).toEqual([1, 1, 1]);
	const plan = result.items[0].json as { modules: Array<{ recommended_prompt: string }> };
	expect(plan.modules[0].recommended_prompt).toContain('copy in zh-CN');
});

test('codes typed in any case are sent in the form the spec shows', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'generate',
					prompt: 'bottle',
					resolution: 'custom',
					customResolution: '2K',
					productDetails: {
						outputLanguage: { value: { outputLanguage: 'custom', customOutputLanguage: 'EN-US' } },
					},
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({ resolution: '2k', output_language: 'en-us' });
});

test('the error lists every accepted task in item order, also when they were accepted out of order', async () => {
	const sim = simulator();
	sim.configure({ taskDurationMs: 10 * 60_000 });
	// Item 0's submit is answered after item 1's; item 2's is refused once both are accepted.
	sim.addFault({ route: 'submit', delayMs: 400 });
	sim.addFault({ route: 'submit', delayMs: 0 });
	sim.addFault({ route: 'submit', status: 400, body: 'error', delayMs: 1_200 });
	// On the virtual clock, so the replies come back in the order their delays say.
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({ maxConcurrency: 3, maxWaitTime: 900 })],
			input: products.slice(0, 3),
		}),
	);

	expect(result.error?.httpCode).toBe('400');
	const taskOf = (prompt: string) =>
		[...sim.tasks.entries()].find(([, task]) => task.body.prompt === prompt)?.[0];
	const [red, green] = [taskOf('a red bottle'), taskOf('a green bottle')];
	const submits = sim.stats.requests.filter((request) => request.route === 'submit');
	expect(submits.map((request) => request.prompt)).toEqual([
		'a red bottle',
		'a green bottle',
		'a blue bottle',
	]);
	// Red's reply was held 400 ms and green's was not: green was accepted first.
	expect(submits[1].at).toBeLessThan(submits[0].at + 400);
	expect(result.error?.description).toContain(`(item 0: ${red}, item 1: ${green})`);
	expect(result.error?.context?.acceptedTasks).toEqual([
		{ itemIndex: 0, taskId: red },
		{ itemIndex: 1, taskId: green },
	]);
});

test('an operation the node does not know is refused by name before any request', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ parameters: { resource: 'image', operation: 'upscale' } }],
	});

	expect(result.error?.message).toBe('The operation "upscale" of "image" is not supported');
	expect(sim.stats.requests).toHaveLength(0);
});

const analyzeWith = (maxConcurrency: string) => ({
	resource: 'analysis',
	operation: 'analyze',
	imageUrls: 'https://cdn.example.com/a.jpg',
	productDetails: { productName: '={{ $json.color }}' },
	options: { maxConcurrency },
});

test.each([
	['Analyze with Items in Parallel "three"', analyzeWith('={{ "three" }}'), 'analysis'],
	['Analyze with Items in Parallel 1/0', analyzeWith('={{ 1/0 }}'), 'analysis'],
	['Analyze with Items in Parallel 0', analyzeWith('={{ 0 }}'), 'analysis'],
	[
		'Generate, which does not wait,',
		{ resource: 'image', operation: 'generate', prompt: '={{ "a " + $json.color + " bottle" }}' },
		'submit',
	],
])('%s runs the items one at a time', async (_name, parameters, route) => {
	const sim = simulator();
	// Items run at once would all arrive while the first is still open.
	sim.configure({ latencyMs: 300 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ parameters }],
		input: products.slice(0, 3),
	});

	expect(result.error).toBeUndefined();
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(openAtArrival[route]).toEqual([1, 1, 1]);
});

describe('an Other field left empty is refused before any request, naming the field (the current version)', () => {
	const current = (parameters: INodeParameters) => ({ typeVersion: CURRENT, parameters });
	const generation = (parameters: INodeParameters) =>
		current({ resource: 'image', operation: 'generate', prompt: 'studio shot', ...parameters });
	const plan = (planDetails: INodeParameters) =>
		current({
			resource: 'aPlusPlan',
			operation: 'create',
			modules: ['core'],
			imageUrls: 'https://img.test/bottle.jpg',
			descriptionSource: 'define',
			productDescription: 'Steel bottle',
			planDetails,
		});

	test.each([
		[
			'Other Platform',
			'Platform',
			generation({
				productDetails: { platform: { value: { platform: 'custom', customPlatform: '' } } },
			}),
		],
		[
			// An expression that gives null, as a store's empty field does.
			'Other Platform',
			'Platform',
			generation({
				productDetails: {
					platform: { value: { platform: 'custom', customPlatform: '={{ null }}' } },
				},
			}),
		],
		[
			'Other Output Language',
			'Output Language',
			generation({
				productDetails: {
					outputLanguage: { value: { outputLanguage: 'custom', customOutputLanguage: '  ' } },
				},
			}),
		],
		['Other Aspect Ratio', 'Aspect Ratio', generation({ size: 'custom', customSize: '' })],
		[
			'Other Resolution',
			'Resolution',
			generation({ resolution: 'custom', customResolution: '={{ $json.missing }}' }),
		],
		['Other Market', 'Market', plan({ market: { value: { market: 'custom' } } })],
		[
			'Other Language',
			'Language',
			plan({ language: { value: { language: 'custom', customLanguage: '' } } }),
		],
		[
			'Other Platform',
			'Platform',
			plan({ platform: { value: { platform: 'custom', customPlatform: '' } } }),
		],
	])("'%s' empty while '%s' is Other", async (field, list, node) => {
		const sim = simulator();
		const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [node] });

		expect(result.error?.message).toBe(
			`'${field}': is empty while '${list}' is 'Other (Type Below)' [item 0]`,
		);
		expect(result.error?.description).toBe(
			`Type the value in '${field}', or choose an entry of '${list}'. No request was sent.`,
		);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

describe('a product text given an object by its expression is refused before any request', () => {
	// A store item's field may hold an object; sent as text it would reach the service as
	// "[object Object]", and the generation would be billed.
	const product = [{ json: { product: { value: 'Trail Bottle' } } }];
	test.each([
		['Product Name', 1, { productName: '={{ $json.product }}' }],
		['Selling Points', 1, { sellingPoints: '={{ [$json.product] }}' }],
		['Product Name', CURRENT, { productDetails: { productName: '={{ $json.product }}' } }],
		['Selling Points', CURRENT, { productDetails: { sellingPoints: '={{ [$json.product] }}' } }],
	])('%s (version %s)', async (label, typeVersion, fields) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					typeVersion,
					parameters: {
						resource: 'image',
						operation: 'generate',
						prompt: 'studio shot',
						...fields,
					},
				},
			],
			input: product,
		});

		expect(result.error?.message).toBe(
			`'${label}': must be text, not an object or a list [item 0]`,
		);
		expect(sim.stats.requests).toHaveLength(0);
	});
});
