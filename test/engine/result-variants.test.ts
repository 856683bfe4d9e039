import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { SimulatorConfig } from '../simulator';
import { readPngInfo } from '../simulator';
import { RESULT_IMAGE_URL_KEYS } from '../../nodes/ProductImage/helpers/output';
import { binaryBytes, runWorkflow } from '../harness/engine';
import { credentialsFor, TEST_API_KEY, useSimulator } from '../harness/simulator';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';

// Replies a real service plausibly sends beyond the spec's one example: every billed image reaches
// the workflow, every file is what its type and name say, and a result the node cannot read is
// handed over in the error rather than lost.

const simulator = useSimulator({ taskDurationMs: 0 });

const quick = { initialDelay: 0, pollInterval: 0.1, maxWaitTime: 10 };
// Version 1 keeps the wait settings as options of their own, the current version in Options → Waiting.
const fastFor = (typeVersion: number): INodeParameters =>
	typeVersion === 1 ? quick : { waiting: { value: quick } };
const fast = fastFor(CURRENT);

const generateAndWait = (options: INodeParameters = {}, typeVersion = CURRENT) => ({
	name: 'Generate',
	typeVersion,
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'studio shot',
		// Version 1 keeps the optional fields at the top, the current version in Product Details.
		...(typeVersion === 1
			? { productName: 'Trail Bottle' }
			: { productDetails: { productName: 'Trail Bottle' } }),
		options: { ...fastFor(typeVersion), ...options },
	},
});

const taskNode = (operation: 'get' | 'wait', continueOnFail = false) => ({
	name: 'Task',
	typeVersion: CURRENT,
	continueOnFail,
	parameters: {
		resource: 'task',
		operation,
		taskId: '={{ $json.task_id }}',
		...(operation === 'wait' ? { options: fast } : {}),
	},
});

/**
 * Every key besides url that a result image's URL is read under, written out rather than taken
 * from the code, so that each key the node accepts is one a test has served it under.
 */
const RESULT_URL_KEYS = [
	'image_url',
	'imageUrl',
	'href',
	'src',
	'uri',
	'link',
	'download_url',
	'downloadUrl',
	'signed_url',
	'signedUrl',
	'file_url',
	'fileUrl',
];

test('every key the node reads a result image URL under is served by a test below', () => {
	expect(['url', ...RESULT_URL_KEYS]).toEqual([...RESULT_IMAGE_URL_KEYS]);
});

const submit = {
	name: 'Submit',
	typeVersion: CURRENT,
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot' },
};

describe('result images in any reasonable shape arrive as images', () => {
	test.each<[string, Partial<SimulatorConfig>]>([
		['bare address strings', { resultImages: 'strings' }],
		...RESULT_URL_KEYS.map((key): [string, Partial<SimulatorConfig>] => [
			`the URL under ${key}`,
			{ resultAddressKey: key },
		]),
		['paths on the service, resolved against the Base URL', { resultAddresses: 'relative' }],
		['bare strings that are paths', { resultImages: 'strings', resultAddresses: 'relative' }],
		['result beside data', { resultPlacement: 'besideData' }],
		['a result that is the image list itself', { resultPlacement: 'resultIsList' }],
		['the image list as images on the task', { resultPlacement: 'imagesOnTask' }],
		['one image without a list', { resultPlacement: 'singleImage' }],
		['times as epoch seconds', { timesAsNumbers: 'seconds' }],
		['times as epoch milliseconds', { timesAsNumbers: 'milliseconds' }],
		['the status under state', { statusField: 'state' }],
		['the status under task_status', { statusField: 'task_status' }],
	])('%s', async (_label, config) => {
		const sim = simulator();
		sim.configure(config);
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
		});

		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		const [taskId] = [...sim.tasks.keys()];
		expect(item.json.url).toBe(
			`${sim.baseUrl}/v1/open/assets/${encodeURIComponent(`generated/open-result/${taskId}-0.png`)}`,
		);
		expect(item.binary?.data.mimeType).toBe('image/png');
		expect(readPngInfo(await binaryBytes(result, item)).width).toBe(256);
		expect(sim.stats.byRoute.asset).toBe(1);
		// Times in any form arrive as the moment they name.
		expect(Math.abs(Date.parse(String(item.json.completed_at)) - Date.now())).toBeLessThan(60_000);
	});

	test('a path on the service gets the key, as any address on the Base URL does', async () => {
		const sim = simulator();
		sim.configure({ resultAddresses: 'relative', assetsRequireAuth: true });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
		});

		expect(result.error).toBeUndefined();
		const asset = sim.stats.requests.find((request) => request.route === 'asset');
		expect(asset?.authorization).toBe(`Bearer ${TEST_API_KEY}`);
	});

	test('an address without its scheme leading to another origin resolves there and gets no key', async () => {
		const sim = simulator();
		sim.configure({ downloads: 'cdn', resultAddresses: 'protocolRelative' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
		});

		expect(result.error).toBeUndefined();
		expect(String(result.items[0].json.url).startsWith(sim.cdnUrl)).toBe(true);
		expect(result.items[0].binary?.data.mimeType).toBe('image/png');
		const cdn = sim.stats.requests.filter((request) => request.origin === 'cdn');
		expect(cdn).toHaveLength(1);
		expect(cdn[0].authorization).toBeUndefined();
		expect(sim.stats.cdnAuthRejected).toBe(0);
	});

	test('Task → Get hands on a task with bare-string images as the service sent it', async () => {
		const sim = simulator();
		sim.configure({ resultImages: 'strings', resultAddresses: 'relative' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [submit, taskNode('get')],
		});

		expect(result.error).toBeUndefined();
		const images = (result.items[0].json.result as IDataObject).images as unknown[];
		expect(images).toHaveLength(1);
		expect(String(images[0])).toMatch(/^\/v1\/open\/assets\//);
	});
});

describe('a finished task whose result cannot be read', () => {
	test('fails with what the service said about the result, the task id and advice that works', async () => {
		const sim = simulator();
		sim.configure({ resultImages: 'unreadable' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
		});

		const [taskId] = [...sim.tasks.keys()];
		expect(result.error?.message).toBe(
			'The finished task holds no downloadable image URLs [item 0]',
		);
		const description = String(result.error?.description);
		expect(description).toContain(`"storage_key":"internal/generated/open-result/${taskId}-0.png"`);
		expect(description).toContain(`task ID ${taskId}`);
		// Collecting the task again would read the same result: no resume advice, from the wait or
		// from the run's list of billed tasks.
		expect(description).toContain('Asking again would read the same reply');
		expect(description).not.toContain('Wait for Completion');
		expect(description).not.toContain(TEST_API_KEY);
		expect(result.error?.context?.taskId).toBe(taskId);
		expect(sim.stats.submitsAccepted).toBe(1);
	});

	test('Continue On Fail: the error item carries the quoted result and the task id', async () => {
		const sim = simulator();
		sim.configure({ resultImages: 'unreadable' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [submit, taskNode('wait', true)],
		});

		const [taskId] = [...sim.tasks.keys()];
		expect(result.error).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ taskId });
		expect(String(result.items[0].json.description)).toContain('"storage_key":"internal/');
		// Task → Get reads the same task without error: the advice to look there works.
		const got = await runWorkflow({
			credentials: credentialsFor(sim),
			input: [{ json: { task_id: taskId } }],
			nodes: [taskNode('get')],
		});
		expect(got.error).toBeUndefined();
		expect(got.items[0].json.result).toMatchObject({
			images: [{ storage_key: `internal/generated/open-result/${taskId}-0.png` }],
		});
	});

	test('a task reply with no status at all fails Task → Get with the reply and the task id, without the key', async () => {
		const sim = simulator();
		sim.configure({ statusField: 'none' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [submit, taskNode('get')],
		});

		const [taskId] = [...sim.tasks.keys()];
		expect(result.error?.message).toBe(
			"The service's reply to the status check lacks fields this node needs [item 0]",
		);
		expect(result.error?.description).toContain('Missing or unexpected: status');
		expect(result.error?.context?.taskId).toBe(taskId);
		const description = String(result.error?.description);
		// The advice for a task query does not name the request, so the request ID stands on its own.
		expect(description).toMatch(/^Missing or unexpected: status: [^.]+\. Request ID: req_\w+\. /);
		expect(description).toContain(`"task_id":"${taskId}"`);
		expect(description).toContain('"result":{"images":[{');
		expect(description).not.toContain(TEST_API_KEY);
	});

	test('the same reply during a wait does not advise waiting again', async () => {
		const sim = simulator();
		sim.configure({ statusField: 'none' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
		});

		const [taskId] = [...sim.tasks.keys()];
		const description = String(result.error?.description);
		expect(description).toContain(`"task_id":"${taskId}"`);
		expect(description).toContain(
			`Asking again would read the same reply, so waiting for task ${taskId} again does not help.`,
		);
		// Neither the wait's resume advice nor the run's list of billed tasks to collect.
		expect(description).not.toContain('Wait for Completion');
		expect(result.error?.context?.taskId).toBe(taskId);
	});
});

describe('a download is named and typed by its bytes', () => {
	test.each<[SimulatorConfig['imageFormat'], string, string, number]>([
		['png', 'image/png', 'png', 256],
		['jpeg', 'image/jpeg', 'jpg', 256],
		['webp', 'image/webp', 'webp', 256],
		['gif', 'image/gif', 'gif', 256],
		['avif', 'image/avif', 'avif', 256],
	])(
		'%s served as application/octet-stream becomes %s, file trail-bottle.%s',
		async (imageFormat, mimeType, extension, width) => {
			const sim = simulator();
			sim.configure({ imageFormat });
			sim.addFault({ route: 'asset', contentType: 'application/octet-stream' });
			const result = await runWorkflow({
				credentials: credentialsFor(sim),
				nodes: [generateAndWait()],
			});

			expect(result.error).toBeUndefined();
			const binary = result.items[0].binary?.data;
			expect(binary?.mimeType).toBe(mimeType);
			expect(binary?.fileName).toBe(`trail-bottle.${extension}`);
			expect(binary?.fileExtension).toBe(extension);
			expect(result.items[0].json.generated_width).toBe(width);
		},
	);

	test.each([
		['with no content type', ''],
		['as binary/octet-stream', 'binary/octet-stream'],
		['as another image type (image/png for JPEG bytes)', 'image/png'],
	])('a JPEG served %s is image/jpeg, .jpg', async (_label, contentType) => {
		const sim = simulator();
		sim.configure({ imageFormat: 'jpeg' });
		sim.addFault({ route: 'asset', contentType });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait({}, 1)],
		});

		expect(result.error).toBeUndefined();
		const binary = result.items[0].binary?.data;
		expect(binary?.mimeType).toBe('image/jpeg');
		// Version 1 names a result by its asset id; the extension follows the bytes.
		expect(binary?.fileName).toMatch(/^task_\w+-0\.jpg$/);
	});

	test('a web page served as application/octet-stream stays an error', async () => {
		const sim = simulator();
		sim.addFault({ route: 'asset', body: 'signIn', contentType: 'application/octet-stream' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait()],
		});

		expect(result.error?.message).toContain('not an image');
		expect(result.items).toHaveLength(0);
	});
});

describe('analysis text in either field', () => {
	const analyze = (typeVersion: number) => ({
		name: 'Analyze',
		typeVersion,
		parameters: {
			resource: 'analysis',
			operation: 'analyze',
			imageUrls: 'https://img.test/bottle.jpg',
			...(typeVersion === 1
				? { productName: 'Trail Bottle' }
				: { productDetails: { productName: 'Trail Bottle' } }),
		},
	});
	// The current version takes the description from the Analyze item unless one is typed.
	const plan = (typeVersion: number, productDescription = '') => ({
		name: 'Plan',
		typeVersion,
		parameters: {
			resource: 'aPlusPlan',
			operation: 'create',
			imageUrls: 'https://img.test/bottle.jpg',
			modules: ['hero'],
			...(typeVersion === 1 || productDescription === ''
				? { productDescription }
				: { descriptionSource: 'define', productDescription }),
		},
	});

	test.each(['formattedText', 'output_text', 'both'] as const)(
		'the current Analyze hands on the brief once, as formattedText, when the service sent %s',
		async (analysisText) => {
			const sim = simulator();
			sim.configure({ analysisText });
			const result = await runWorkflow({
				credentials: credentialsFor(sim),
				nodes: [analyze(CURRENT)],
			});

			expect(result.error).toBeUndefined();
			const { formattedText } = result.items[0].json;
			expect(typeof formattedText).toBe('string');
			expect(result.items[0].json).not.toHaveProperty('output_text');
		},
	);

	test('version 1 Analyze hands on what the service sent, as it did', async () => {
		const sim = simulator();
		sim.configure({ analysisText: 'output_text' });
		const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [analyze(1)] });

		expect(result.error).toBeUndefined();
		expect(result.items[0].json.formattedText).toBeUndefined();
		expect(typeof result.items[0].json.output_text).toBe('string');
	});

	test('A+ Plan takes output_text when the item has no formattedText, as plain text', async () => {
		const sim = simulator();
		sim.configure({ analysisText: 'output_text' });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [analyze(1), plan(CURRENT)],
		});

		expect(result.error).toBeUndefined();
		const sent = sim.stats.requests.find((request) => request.route === 'plan');
		const description = String(sent?.productDescription);
		expect(description.startsWith('Trail Bottle\nCategory: ')).toBe(true);
		expect(description).not.toMatch(/^#|\n#|\n- /);
	});

	test('the Analyze brief and a store page reach the plan as plain text', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			input: [
				{
					json: {
						formattedText:
							'# Trail **Bottle**\n\n## Selling points\n- Keeps *cold* 24 h\n1. See [our shop](https://shop.test)',
					},
				},
				{
					json: {
						formattedText: '<h2>Trail Bottle</h2><ul><li><b>Steel</b> &amp; glass</li></ul>',
					},
				},
			],
			nodes: [plan(CURRENT)],
		});

		expect(result.error).toBeUndefined();
		const sent = sim.stats.requests
			.filter((request) => request.route === 'plan')
			.map((request) => request.productDescription);
		expect(sent).toEqual([
			'Trail Bottle\n\nSelling points\nKeeps cold 24 h\nSee our shop',
			'Trail Bottle\n\nSteel & glass',
		]);
	});

	test('the current A+ Plan without any description stops before the request and says where it comes from', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			input: [{ json: { analysis: {} } }],
			nodes: [plan(CURRENT)],
		});

		expect(result.error?.message).toBe(
			"'Product Description From': the input item has no brief ('formattedText' or 'output_text') of 'Analysis → Analyze' [item 0]",
		);
		expect(result.error?.description).toContain(
			"Connect 'Analysis → Analyze' before this node, or choose 'Define Below'",
		);
		expect(sim.stats.byRoute.plan ?? 0).toBe(0);
	});

	test('the current A+ Plan with Define Below and a description that comes out empty stops before the request, naming the field', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			input: [{ json: { formattedText: 'A brief that Define Below does not read' } }],
			nodes: [
				{
					...plan(CURRENT),
					parameters: {
						...plan(CURRENT).parameters,
						descriptionSource: 'define',
						productDescription: '={{ $json.body_html }}',
					},
				},
			],
		});

		expect(result.error?.message).toBe(
			"'Product Description': is empty; a plan needs a description of the product [item 0]",
		);
		expect(sim.stats.byRoute.plan ?? 0).toBe(0);
	});

	test('version 1 A+ Plan without a description still sends the plan without one', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [plan(1)],
		});

		expect(result.error).toBeUndefined();
		const sent = sim.stats.requests.find((request) => request.route === 'plan');
		expect(sent?.productDescription).toBeUndefined();
	});
});

describe('A+ module images are named by what they are', () => {
	const moduleChain = (typeVersion: number) => [
		{
			name: 'Plan',
			typeVersion,
			parameters: {
				resource: 'aPlusPlan',
				operation: 'create',
				...(typeVersion === 1
					? { productDescription: 'Trail bottle' }
					: { descriptionSource: 'define', productDescription: 'Trail bottle' }),
				imageUrls: 'https://img.test/bottle.jpg',
				modules: ['hero'],
			},
		},
		{
			name: 'Generate',
			typeVersion,
			parameters: {
				resource: 'image',
				operation: 'generateAndWait',
				generationSource: 'aPlusModule',
				options: fastFor(typeVersion),
			},
		},
	];

	test('the file is named by its module alone, true before and after a fit; the target size is in target_* fields', async () => {
		const sim = simulator();
		sim.configure({ imageLongSide: 1024 });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: moduleChain(CURRENT),
		});

		expect(result.error).toBeUndefined();
		const [item] = result.items;
		const png = readPngInfo(await binaryBytes(result, item));
		expect(item.binary?.data.fileName).toBe('hero.png');
		expect([png.width, png.height]).not.toEqual([1464, 600]);
		// The generated size is named so: an Edit Image node after this one passes it on unchanged.
		expect(item.json).toMatchObject({
			target_width: 1464,
			target_height: 600,
			generated_width: png.width,
			generated_height: png.height,
		});
		expect(item.json).not.toHaveProperty('width');
	});

	test('a module item whose sizes are numbers written as text is read as a module', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			input: [
				{
					json: {
						module: 'core',
						recommended_prompt: 'Trail bottle on a rock',
						aspect_ratio: '97:60',
						target_width: '970',
						target_height: '600',
					},
				},
			],
			nodes: [moduleChain(CURRENT)[1]],
		});

		expect(result.error).toBeUndefined();
		const [task] = [...sim.tasks.values()];
		expect(task.body).toMatchObject({ size: '97:60', resolution: '1k' });
		expect(result.items[0].json).toMatchObject({ target_width: 970, target_height: 600 });
	});
});
