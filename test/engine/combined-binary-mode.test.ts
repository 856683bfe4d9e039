import { readPngInfo } from '../simulator';
import { photoItem, pngBytes } from '../harness/fixtures';
import type { RunSpec } from '../harness/engine';
import { binaryBytes, runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';

// n8n 2.x's workflow setting Binary Mode "combined": with a stored binary mode the engine moves
// every file into the item's JSON under `_files`, and n8n's helpers resolve a field as a path
// there. The harness converts the input the same way, as if a previous node had output it.

const simulator = useSimulator();

const combined: Pick<RunSpec, 'binaryMode' | 'workflowBinaryMode'> = {
	binaryMode: 'filesystem',
	workflowBinaryMode: 'combined',
};

const upload = (binaryPropertyName: string) => ({
	parameters: { resource: 'image', operation: 'upload', binaryPropertyName },
});

const fast = { waiting: { value: { initialDelay: 0, pollInterval: 0.1 } } };
const generateAndWait = (inputBinaryFields: string) => ({
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'studio shot',
		size: '3:2',
		imageSource: 'binary',
		inputBinaryFields,
		options: fast,
	},
});

test('a file another node output in combined mode reaches Upload by the name "data"', async () => {
	const sim = simulator();
	const seeded = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [upload('data')],
		input: [photoItem()],
	});
	const address = String(seeded.items[0].json.url);

	const result = await runWorkflow({
		...combined,
		credentials: credentialsFor(sim),
		nodes: [
			{ parameters: { resource: 'image', operation: 'download', url: address } },
			upload('data'),
		],
	});

	expect(result.error).toBeUndefined();
	const [downloaded] = result.outputs['Product Image'];
	expect(downloaded.binary).toBeUndefined();
	expect((downloaded.json._files as Record<string, { id: string }>).data.id).toMatch(/^filesystem/);
	const uploads = [...sim.uploads.values()];
	expect(uploads).toHaveLength(2);
	expect(Buffer.compare(uploads[1].bytes, uploads[0].bytes)).toBe(0);
});

describe.each(['data', '_files.data'])('combined mode, the field typed as "%s"', (typed) => {
	test('Upload sends the file, read from the store by id', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			...combined,
			credentials: credentialsFor(sim),
			nodes: [upload(typed)],
			input: [photoItem()],
		});

		expect(result.error).toBeUndefined();
		expect(result.input[0].binary).toBeUndefined();
		expect(Object.keys(result.input[0].json._files as object)).toEqual(['data']);
		const stored = sim.uploads.get(String(result.items[0].json.id));
		expect(stored?.filename).toBe('photo-data.png');
		expect(stored?.contentType).toBe('image/png');
		expect(Buffer.compare(stored!.bytes, pngBytes(32, 24))).toBe(0);
	});

	test('Analyze uploads the file and analyzes it', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			...combined,
			credentials: credentialsFor(sim),
			nodes: [
				{
					parameters: {
						resource: 'analysis',
						operation: 'analyze',
						productDetails: { productName: 'Trail Bottle' },
						imageSource: 'binary',
						inputBinaryFields: typed,
					},
				},
			],
			input: [photoItem()],
		});

		expect(result.error).toBeUndefined();
		expect(String(result.items[0].json.formattedText).length).toBeGreaterThan(0);
		const uploads = [...sim.uploads.values()];
		expect(uploads).toHaveLength(1);
		expect(Buffer.compare(uploads[0].bytes, pngBytes(32, 24))).toBe(0);
	});

	test('Generate sends the uploaded file as a source image', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			...combined,
			credentials: credentialsFor(sim),
			nodes: [
				{
					parameters: {
						resource: 'image',
						operation: 'generate',
						prompt: 'studio shot',
						imageSource: 'binary',
						inputBinaryFields: typed,
					},
				},
			],
			input: [photoItem()],
		});

		expect(result.error).toBeUndefined();
		const body = sim.tasks.get(String(result.items[0].json.task_id))?.body as {
			image_urls: string[];
		};
		expect(body.image_urls).toHaveLength(1);
		const [uploaded] = [...sim.uploads.values()];
		expect(Buffer.compare(uploaded.bytes, pngBytes(32, 24))).toBe(0);
	});
});

test('Generate and Wait takes several fields in either form; its images reach the next node by `_files.data`', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		...combined,
		credentials: credentialsFor(sim),
		nodes: [generateAndWait('front, _files.side'), upload('_files.data')],
		input: [photoItem(['front', 'side'])],
	});

	expect(result.error).toBeUndefined();
	const body = [...sim.tasks.values()][0].body as { image_urls: string[] };
	expect(body.image_urls).toHaveLength(2);
	const uploads = [...sim.uploads.values()];
	expect(Buffer.compare(uploads[0].bytes, pngBytes(32, 24))).toBe(0);
	expect(Buffer.compare(uploads[1].bytes, pngBytes(33, 24))).toBe(0);

	// The engine moved the generated image into the item's JSON, stored by id.
	const [generated] = result.outputs['Product Image'];
	expect(generated.binary).toBeUndefined();
	const files = generated.json._files as Record<string, { id?: string; mimeType: string }>;
	expect(files.data.id).toMatch(/^filesystem-v2:/);
	expect(files.data.mimeType).toBe('image/png');
	const bytes = await binaryBytes(result, generated);
	expect(readPngInfo(bytes).width).toBeGreaterThan(0);

	// The next node read that file: the third upload is the generated image.
	expect(uploads).toHaveLength(3);
	expect(Buffer.compare(uploads[2].bytes, bytes)).toBe(0);
});

test('combined mode on memory storage (files left on the item): the name still finds the file', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		binaryMode: 'memory',
		workflowBinaryMode: 'combined',
		credentials: credentialsFor(sim),
		nodes: [upload('data')],
		input: [photoItem()],
	});

	expect(result.error).toBeUndefined();
	const [uploaded] = [...sim.uploads.values()];
	expect(Buffer.compare(uploaded.bytes, pngBytes(32, 24))).toBe(0);
});

test('separate mode takes the path form too: `_files.data` finds the item binary "data"', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [upload('_files.data')],
		input: [photoItem()],
	});

	expect(result.error).toBeUndefined();
	const [uploaded] = [...sim.uploads.values()];
	expect(Buffer.compare(uploaded.bytes, pngBytes(32, 24))).toBe(0);
});

describe.each([
	['combined', combined, '_files.front, _files.side'],
	['separate', { binaryMode: 'filesystem' as const }, 'front, side'],
])('%s mode, a field the item lacks', (_mode, spec, listed) => {
	test.each([
		['Upload', upload('back')],
		['Generate and Wait', generateAndWait('front, back')],
	])('%s is refused before any request, listing the files the item carries', async (_op, node) => {
		const sim = simulator();
		const result = await runWorkflow({
			...spec,
			credentials: credentialsFor(sim),
			nodes: [node],
			input: [photoItem(['front', 'side'])],
		});

		expect(result.error?.message).toContain("the input item has no binary field 'back' [item 0]");
		expect(result.error?.description).toBe(
			`Binary fields on this item: ${listed}. Enter one of them.`,
		);
		expect(sim.stats.requests).toHaveLength(0);
	});
});

test('combined mode: a JSON field that is not a file is not taken for one', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		...combined,
		credentials: credentialsFor(sim),
		nodes: [upload('title')],
		input: [photoItem(['data'], { title: 'Trail bottle' })],
	});

	expect(result.error?.message).toContain("no binary field 'title'");
	expect(result.error?.description).toContain('_files.data');
	expect(sim.stats.requests).toHaveLength(0);
});
