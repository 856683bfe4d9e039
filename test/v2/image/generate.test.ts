import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { photoItem, pairedIndexes } from '../../harness/fixtures';
import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import {
	SPEC_EXTRA,
	SPEC_URLS,
	expectRefusedBeforeAnyRequest,
	expectSpecBody,
	expectUrlThenUploads,
} from '../../harness/versionCases';
import { runOnVirtualClock } from '../../harness/virtualClock';
import { DEFAULT_VERSION as CURRENT } from '../../../nodes/ProductImage/descriptions/versions';

const simulator = useSimulator();

const generate = (extra: Record<string, unknown> = {}) => ({
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', ...extra },
});

test('submits the spec body and outputs task_id and status without waiting', async () => {
	await expectSpecBody(
		simulator(),
		generate({
			imageUrls: SPEC_URLS,
			productDetails: {
				productName: 'Steel bottle',
				sellingPoints: 'Cold 24 h',
				platform: { value: { platform: 'amazon' } },
				outputLanguage: { value: { outputLanguage: 'en-us' } },
			},
			size: '4:3',
			resolution: '2k',
			options: {
				extraBodyFields: SPEC_EXTRA,
			},
		}),
	);
});

test('Images From Both: image URLs given as a list, plus input binary fields uploaded first', async () => {
	await expectUrlThenUploads(
		simulator(),
		generate({
			prompt: '',
			imageSource: 'both',
			imageUrls: ['https://x.test/1.png'],
			inputBinaryFields: 'front, side',
		}),
	);
});

test.each([
	[{ size: '16x9' }, "'Aspect Ratio'"],
	[{ size: '0:1' }, "'Aspect Ratio'"],
	[{ resolution: '' }, "'Resolution'"],
	[{ prompt: '', imageUrls: '' }, 'a generation needs a prompt or at least one source image'],
	[{ imageUrls: 'file:///etc/passwd' }, '"file:///etc/passwd" is not an http(s) URL'],
	[{ imageUrls: 'ftp://host/a.png' }, "'Image URLs'"],
	[{ options: { extraBodyFields: '[1,2]' } }, "'Other Service Fields'"],
])('bad parameters %j are refused before any request', async (parameters, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), generate(parameters), message);
});

test('a missing input binary field is refused before anything is uploaded', async () => {
	await expectRefusedBeforeAnyRequest(
		simulator(),
		generate({ imageSource: 'binary', inputBinaryFields: 'front, back' }),
		`'Input Binary Fields': the input item has no binary field 'back'`,
		[photoItem(['front'])],
	);
});

test('many items submit one task each, in input order', async () => {
	const sim = simulator();
	const input = ['red', 'green', 'blue'].map((color) => ({ json: { color } }));
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generate({ prompt: '={{ "a " + $json.color + " bottle" }}' })],
		input,
	});

	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	const bodies = result.items.map((item) => sim.tasks.get(String(item.json.task_id))?.body ?? {});
	expect(bodies.map((body) => body.prompt)).toEqual([
		'a red bottle',
		'a green bottle',
		'a blue bottle',
	]);
	// From the prompt alone: no image_urls at all, not an empty list the service may refuse.
	expect(bodies.filter((body) => 'image_urls' in body)).toEqual([]);
	expect(sim.stats.submitsAccepted).toBe(3);
});

/** When each submit reached the service, from the first, on the virtual clock. */
const submitTimes = (sim: ReturnType<typeof simulator>) => {
	const times = sim.stats.requests.filter((r) => r.route === 'submit').map((r) => r.at);
	return times.map((at) => at - times[0]);
};

test('Items in Parallel sends that many submits at once, and the output keeps input order', async () => {
	const sim = simulator();
	// Every answer takes 400 ms: a lane sends its next submit only after its answer.
	sim.configure({ latencyMs: 400 });
	const input = [0, 1, 2, 3, 4, 5].map((index) => ({ json: { index } }));
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					...generate({ prompt: '={{ "item " + $json.index }}', options: { maxConcurrency: 3 } }),
					typeVersion: CURRENT,
				},
			],
			input,
		}),
	);

	expect(result.error).toBeUndefined();
	expect(submitTimes(sim)).toEqual([0, 0, 0, 400, 400, 400]);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3, 4, 5]);
	const prompts = result.items.map((item) => sim.tasks.get(String(item.json.task_id))?.body.prompt);
	expect(prompts).toEqual(['item 0', 'item 1', 'item 2', 'item 3', 'item 4', 'item 5']);
});

test('without Items in Parallel, Submit Generation (No Wait) sends one submit after another', async () => {
	const sim = simulator();
	sim.configure({ latencyMs: 400 });
	const input = [0, 1, 2].map((index) => ({ json: { index } }));
	const result = await runOnVirtualClock(() =>
		runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ ...generate(), typeVersion: CURRENT }],
			input,
		}),
	);

	expect(result.error).toBeUndefined();
	expect(submitTimes(sim)).toEqual([0, 400, 800]);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
});

test('CDN addresses with commas in their path reach the service exactly as given', async () => {
	const sim = simulator();
	const cloudinary = 'https://res.cdn.test/image/upload/w_400,h_300,c_fill/v1/bottle.jpg';
	const shopify = 'https://cdn.shop.test/files/bottle.jpg?v=1,2';
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generate({ imageUrls: `${cloudinary}, ${shopify}\nhttps://cdn.shop.test/side.jpg` }),
			generate({ imageUrls: `={{ ["${cloudinary}"] }}` }),
		],
	});

	expect(result.error).toBeUndefined();
	const bodies = [...sim.tasks.values()].map((task) => task.body.image_urls);
	expect(bodies).toEqual([[cloudinary, shopify, 'https://cdn.shop.test/side.jpg'], [cloudinary]]);
});

describe('Image Settings From an A+ module: an input item that is not one is refused, saying what it is', () => {
	const fromModule = {
		typeVersion: CURRENT,
		parameters: { resource: 'image', operation: 'generate', generationSource: 'aPlusModule' },
	};
	const allMissing = 'module, recommended_prompt, aspect_ratio, target_width, target_height';
	const connectPlan =
		"Connect the output of 'A+ Plan → Create' with 'One Item per Module' on, or choose 'Define Below'.";
	const analysis = "It is a product analysis: plan the A+ modules with 'A+ Plan → Create' first.";

	test.each<[string, IDataObject, string, string]>([
		[
			'a whole plan',
			{ modules: [{ recommended_prompt: 'A banner' }], global_style: 'calm' },
			allMissing,
			"It is a whole A+ plan (it has a 'modules' list): in 'A+ Plan → Create', turn on 'One Item per Module' in Options, so each module becomes an item of its own.",
		],
		[
			'a generation task',
			{ task_id: 'task-1', status: 'submitted' },
			allMissing,
			'It is a generation task, not a plan module.',
		],
		['an analysis (formattedText)', { formattedText: '# Bottle' }, allMissing, analysis],
		['an analysis (output_text)', { output_text: 'Bottle' }, allMissing, analysis],
		['an analysis (analysis)', { analysis: { name: 'Bottle' } }, allMissing, analysis],
		['a product', { id: 7, title: 'Trail Bottle' }, allMissing, connectPlan],
		// A task_id that is not text, a modules field that is not a list: neither says what it is.
		['a product with odd fields', { task_id: 7, modules: 'hero' }, allMissing, connectPlan],
		[
			'a module name alone',
			{ module: 'hero' },
			'recommended_prompt, aspect_ratio, target_width, target_height',
			connectPlan,
		],
		[
			'a module without its size',
			{
				module: 'core',
				recommended_prompt: 'Trail bottle on a rock',
				aspect_ratio: '97:60',
				target_width: 0,
				target_height: '600 px',
			},
			'target_width, target_height',
			connectPlan,
		],
		[
			// Number() would read both, as 1000 and 600: a size written as text is digits only.
			'a module whose sizes are text other than digits',
			{
				module: 'core',
				recommended_prompt: 'Trail bottle on a rock',
				aspect_ratio: '97:60',
				target_width: '1e3',
				target_height: '0x258',
			},
			'target_width, target_height',
			connectPlan,
		],
		[
			'a module with blank texts',
			{
				module: ' ',
				recommended_prompt: '',
				aspect_ratio: '97:60',
				target_width: 970,
				target_height: 600,
			},
			'module, recommended_prompt',
			connectPlan,
		],
	])('%s', async (_, json, missing, what) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [fromModule],
			input: [{ json }],
		});

		expect(result.error?.message).toBe(
			`'Image Settings From': the input item is not an A+ module: it has no ${missing} [item 0]`,
		);
		expect(result.error?.description).toBe(`${what} No request was sent.`);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

describe('Image Settings From an A+ module: what the module item gives the generation', () => {
	const fromModule = {
		typeVersion: CURRENT,
		parameters: { resource: 'image', operation: 'generate', generationSource: 'aPlusModule' },
	};
	const core = {
		module: 'core',
		recommended_prompt: 'Trail bottle on a rock',
		aspect_ratio: '97:60',
		target_width: 970,
		target_height: 600,
	};
	const submitted = async (json: IDataObject) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [fromModule],
			input: [{ json }],
		});
		expect(result.error).toBeUndefined();
		return {
			item: result.items[0].json,
			body: sim.tasks.get(String(result.items[0].json.task_id))?.body,
		};
	};

	test('its texts are sent without the spaces and line breaks around them; the item carries its module and size', async () => {
		const { item, body } = await submitted({
			module: ' core ',
			recommended_prompt: '  Trail bottle on a rock\n',
			aspect_ratio: ' 97:60 ',
			target_width: ' 970 ',
			target_height: 600,
			global_style: ' calm blue ',
			platform: ' amazon\n',
			language: ' en-US ',
		});

		expect(body).toEqual({
			prompt: 'Trail bottle on a rock',
			plan_prompt: 'Trail bottle on a rock',
			series_style_guide: 'calm blue',
			size: '97:60',
			resolution: '1k',
			product_info: { platform: 'amazon' },
			output_language: 'en-us',
		});
		expect(item).toMatchObject({
			module: 'core',
			target_width: 970,
			target_height: 600,
			target_size: '970x600',
		});
	});

	test.each<[string, IDataObject[string], string | undefined]>([
		['a text is sent as it is', 'Calm blue, soft daylight', 'Calm blue, soft daylight'],
		[
			'a structured one is sent as its JSON text',
			{ palette: ['navy', 'white'], light: 'soft' },
			'{"palette":["navy","white"],"light":"soft"}',
		],
		// A plan without a style guide gives its module items global_style null.
		['none (null) sends no style guide', null, undefined],
	])("the plan's global_style: %s", async (_, globalStyle, sent) => {
		const { body } = await submitted({ ...core, global_style: globalStyle });
		expect(body?.series_style_guide).toBe(sent);
	});

	test("with Image URLs empty, the module item's http(s) addresses are the generation's photos, nothing else in its list", async () => {
		const { body } = await submitted({
			...core,
			image_urls: [
				'https://img.test/front.jpg',
				'ftp://img.test/side.jpg',
				7,
				['https://img.test/nested.jpg'],
				'/photos/top.jpg',
				'http://img.test/back.jpg',
			],
		});
		expect(body?.image_urls).toEqual(['https://img.test/front.jpg', 'http://img.test/back.jpg']);
	});

	test("Module Prompt and Style Guide replace the module item's prompt and the plan's style guide", async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					...fromModule,
					parameters: {
						...fromModule.parameters,
						options: {
							planPrompt: ' Bottle on a trail at dawn ',
							seriesStyleGuide: 'Warm light, muted greens',
						},
					},
				},
			],
			input: [{ json: { ...core, global_style: 'calm blue' } }],
		});

		expect(result.error).toBeUndefined();
		const [task] = [...sim.tasks.values()];
		expect(task.body).toMatchObject({
			prompt: 'Trail bottle on a rock',
			plan_prompt: 'Bottle on a trail at dawn',
			series_style_guide: 'Warm light, muted greens',
		});
	});

	test('a module larger than the largest resolution is refused, saying what to set instead', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [fromModule],
			input: [{ json: { ...core, target_width: 5000 } }],
		});

		expect(result.error?.message).toBe(
			"'Image Settings From': no resolution label covers the module's 5000×600 [item 0]",
		);
		expect(result.error?.description).toBe(
			"Choose 'Define Below' and set 'Aspect Ratio' and 'Resolution'. No request was sent.",
		);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

describe('Images From', () => {
	const submit = (typeVersion: number, parameters: INodeParameters) => ({
		typeVersion,
		parameters: { resource: 'image', operation: 'generate', prompt: '', ...parameters },
	});
	const both = { imageUrls: 'https://x.test/1.png', inputBinaryFields: 'front' };

	const imageUrlsSent = async (nodeSpec: ReturnType<typeof submit>) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [nodeSpec],
			input: [photoItem(['front'])],
		});
		expect(result.error).toBeUndefined();
		const body = sim.tasks.get(String(result.items[0].json.task_id))?.body as {
			image_urls: string[];
		};
		return { urls: body.image_urls, uploads: sim.stats.byRoute.upload ?? 0, sim };
	};

	test('the current version, URLs (the default): only Image URLs is sent; the binary field is not uploaded', async () => {
		const { urls, uploads } = await imageUrlsSent(submit(CURRENT, both));
		expect(urls).toEqual(['https://x.test/1.png']);
		expect(uploads).toBe(0);
	});

	test('the current version, Binary Files: only the input files are uploaded and sent', async () => {
		const { urls, uploads, sim } = await imageUrlsSent(
			submit(CURRENT, { ...both, imageSource: 'binary' }),
		);
		expect(uploads).toBe(1);
		expect(urls).toHaveLength(1);
		expect(urls[0].startsWith(`${sim.baseUrl}/v1/open/media/`)).toBe(true);
	});

	test('the current version, URLs: a binary field named but not on the item is no error, since it is not read', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [submit(CURRENT, { imageUrls: 'https://x.test/1.png', inputBinaryFields: 'missing' })],
		});
		expect(result.error).toBeUndefined();
		expect(sim.stats.submitsAccepted).toBe(1);
	});
});

describe('the submit reply, from a stand-in service', () => {
	// What Image → Generate outputs is what the service answered to the submit: its task id, its
	// status (or "submitted" when it names none; the spec leaves the field optional) and the request
	// id to quote to the provider. The simulator always sends a status, so a stand-in service answers
	// here with exactly the reply each test needs.

	const KEY = 'stand-in-key-0123456789';
	let server: Server | undefined;

	afterEach(async () => {
		await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
		server = undefined;
	});

	/** A service whose submit route answers `reply` (status 200) and counts what it got. */
	async function serviceAnswering(reply: object): Promise<{ baseUrl: string; submits: string[] }> {
		const submits: string[] = [];
		server = createServer((request, response) => {
			request.resume();
			request.on('end', () => {
				if (request.method === 'POST' && request.url === '/v1/open/product-images/generations') {
					submits.push(String(request.headers.authorization));
					response.writeHead(200, { 'content-type': 'application/json' });
					response.end(JSON.stringify(reply));
					return;
				}
				response.writeHead(404, { 'content-type': 'application/json' });
				response.end('{"code":404,"message":"not here"}');
			});
		});
		await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return { baseUrl: `http://127.0.0.1:${port}`, submits };
	}

	async function submitTo(baseUrl: string) {
		return await runWorkflow({
			credentials: { baseUrl, apiKey: KEY },
			nodes: [{ parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot' } }],
		});
	}

	test('Generate outputs the request id the service gave its submit', async () => {
		const service = await serviceAnswering({
			code: 200,
			data: { task_id: 'task_abc123', status: 'queued' },
			request_id: 'req_0f1e2d',
		});
		const result = await submitTo(service.baseUrl);

		expect(result.error).toBeUndefined();
		expect(service.submits).toEqual([`Bearer ${KEY}`]);
		expect(result.items.map((item) => item.json)).toEqual([
			{ task_id: 'task_abc123', status: 'queued', request_id: 'req_0f1e2d' },
		]);
	});

	test('Generate outputs "submitted" when the submit reply names no status', async () => {
		const service = await serviceAnswering({
			code: 200,
			data: { task_id: 'task_abc123' },
			request_id: 'req_0f1e2d',
		});
		const result = await submitTo(service.baseUrl);

		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([
			{ task_id: 'task_abc123', status: 'submitted', request_id: 'req_0f1e2d' },
		]);
	});

	test('a submit reply without a task id is an error that names the missing field', async () => {
		const service = await serviceAnswering({ code: 200, data: { status: 'queued' } });
		const result = await submitTo(service.baseUrl);

		expect(result.error?.message).toBe(
			"The service's reply to the generation request lacks fields this node needs [item 0]",
		);
		// No request id in the reply: the description names the field and what to do, and no id.
		expect(result.error?.description).toMatch(
			/^Missing or unexpected: task_id: Required\. The reply holds no task ID\./,
		);
		expect(result.error?.description).not.toContain('Request ID:');
	});

	test('a submit reply with a numeric task id takes the id as text', async () => {
		const service = await serviceAnswering({
			code: 200,
			data: { task_id: 42 },
			request_id: 'req_1',
		});
		const result = await submitTo(service.baseUrl);

		expect(result.error).toBeUndefined();
		expect(result.items[0].json.task_id).toBe('42');
	});

	test('a submit reply of the wrong shape quotes its request id', async () => {
		const service = await serviceAnswering({
			code: 200,
			data: { task_id: { id: 42 } },
			request_id: 'req_0f1e2d',
		});
		const result = await submitTo(service.baseUrl);

		expect(result.error?.message).toBe(
			"The service's reply to the generation request lacks fields this node needs [item 0]",
		);
		expect(result.error?.description).toMatch(
			/^Missing or unexpected: task_id: .+\. The reply holds no task ID\./,
		);
		expect(result.error?.description).toContain('request ID req_0f1e2d');
		expect(result.error?.context?.requestId).toBe('req_0f1e2d');
	});
});
