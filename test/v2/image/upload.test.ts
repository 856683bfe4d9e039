import { photoItem, pairedIndexes, pngBytes } from '../../harness/fixtures';
import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';

const simulator = useSimulator();

const upload = (extra: Record<string, unknown> = {}) => ({
	parameters: { resource: 'image', operation: 'upload', binaryPropertyName: 'data', ...extra },
});

test('uploads the binary field as multipart part "file" and outputs id, url and expiresAt', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [upload()],
		input: [photoItem()],
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const json = result.items[0].json;
	expect(json.id).toMatch(/^generated\/open-upload\/.+\.png$/);
	expect(json.url).toBe(`${sim.baseUrl}/v1/open/media/${encodeURIComponent(String(json.id))}`);
	expect(typeof json.expiresAt).toBe('string');
	const stored = sim.uploads.get(String(json.id));
	expect(stored?.contentType).toBe('image/png');
	expect(stored?.filename).toBe('photo-data.png');
	expect(Buffer.compare(stored!.bytes, pngBytes(32, 24))).toBe(0);
	const [request] = sim.stats.requests.filter((entry) => entry.route === 'upload');
	expect(request.authorization).toBe(`Bearer ${sim.apiKey}`);
});

test('uploads a binary kept in the filesystem store (read back as a stream by id)', async () => {
	const sim = simulator();
	const seeded = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [upload()],
		input: [photoItem()],
	});
	const address = String(seeded.items[0].json.url);

	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		binaryMode: 'filesystem',
		nodes: [{ parameters: { resource: 'image', operation: 'download', url: address } }, upload()],
	});

	expect(result.error).toBeUndefined();
	const downloaded = result.outputs['Product Image'][0].binary?.data;
	expect(downloaded?.id).toMatch(/^filesystem/);
	const uploads = [...sim.uploads.values()];
	expect(uploads).toHaveLength(2);
	expect(Buffer.compare(uploads[1].bytes, uploads[0].bytes)).toBe(0);
});

test('a missing binary field names the field and the fields that exist, before any request', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [upload({ binaryPropertyName: 'photo' })],
		input: [photoItem(['front', 'side'])],
	});

	expect(result.error?.message).toContain("no binary field 'photo'");
	expect(result.error?.description).toContain('front, side');
	expect(sim.stats.requests).toHaveLength(0);
});

test('many items: one output per item, in order, each paired with its input', async () => {
	const sim = simulator();
	const input = [0, 1, 2, 3].map((index) => photoItem(['data'], { index }));
	const result = await runWorkflow({ credentials: credentialsFor(sim), nodes: [upload()], input });

	expect(result.items).toHaveLength(4);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2, 3]);
	expect(new Set(result.items.map((item) => item.json.id)).size).toBe(4);
});

test('a file type the service refuses is a clear error; with Continue On Fail the other items go on', async () => {
	const sim = simulator();
	const text = {
		json: {},
		binary: {
			data: {
				data: Buffer.from('hello').toString('base64'),
				mimeType: 'text/plain',
				fileName: 'notes.txt',
			},
		},
	};
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ ...upload(), continueOnFail: true }],
		input: [photoItem(), text, photoItem()],
	});

	expect(result.items).toHaveLength(3);
	expect(pairedIndexes(result.items)).toEqual([0, 1, 2]);
	expect(result.items[0].json.url).toBeDefined();
	expect(result.items[1].json.error).toBe('The service does not take this image type');
	expect(result.items[1].json.httpCode).toBe('415');
	expect(result.items[1].json.description).toContain('JPEG, PNG or WebP');
	expect(result.items[2].json.url).toBeDefined();
});
