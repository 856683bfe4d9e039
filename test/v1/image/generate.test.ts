import { photoItem } from '../../harness/fixtures';
import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';

// Version 1's Submit Generation (No Wait): its fields at the top of the panel, both image inputs
// read together, and its labels in the errors.

const simulator = useSimulator();

const generate = (extra: Record<string, unknown> = {}) => ({
	typeVersion: 1,
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', ...extra },
});

test('submits the spec body and outputs task_id and status without waiting', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generate({
				imageUrls: 'https://cdn.example.com/a.jpg,\nhttps://cdn.example.com/b.jpg',
				productName: 'Steel bottle',
				sellingPoints: 'Cold 24 h',
				platform: 'amazon',
				size: '4:3',
				resolution: '2k',
				outputLanguage: 'en-us',
				options: {
					extraBodyFields: '{"plan_prompt": "hero shot", "series_style_guide": "calm blue"}',
				},
			}),
		],
	});

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	const { task_id: taskId, status } = result.items[0].json;
	expect(status).toBe('submitted');
	expect(sim.tasks.get(String(taskId))?.body).toEqual({
		prompt: 'studio shot',
		image_urls: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'],
		product_info: { name: 'Steel bottle', sellingPoints: 'Cold 24 h', platform: 'amazon' },
		size: '4:3',
		resolution: '2k',
		output_language: 'en-us',
		plan_prompt: 'hero shot',
		series_style_guide: 'calm blue',
	});
	expect(sim.stats.byRoute.task ?? 0).toBe(0);
});

test('image URLs given as a list, plus input binary fields uploaded first', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generate({
				prompt: '',
				imageUrls: ['https://x.test/1.png'],
				inputBinaryFields: 'front, side',
			}),
		],
		input: [photoItem(['front', 'side'])],
	});

	expect(result.error).toBeUndefined();
	const body = sim.tasks.get(String(result.items[0].json.task_id))?.body as {
		image_urls: string[];
		prompt?: string;
	};
	expect(body.prompt).toBeUndefined();
	expect(body.image_urls).toHaveLength(3);
	expect(body.image_urls[0]).toBe('https://x.test/1.png');
	expect(
		body.image_urls.slice(1).every((url) => url.startsWith(`${sim.baseUrl}/v1/open/media/`)),
	).toBe(true);
	expect(sim.stats.byRoute.upload).toBe(2);
});

test.each([
	[{ size: '16x9' }, "'Size'"],
	[{ size: '0:1' }, "'Size'"],
	[{ options: { extraBodyFields: '[1,2]' } }, "'Extra Body Fields'"],
])('bad parameters %j are refused before any request', async (parameters, message) => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generate(parameters)],
	});

	expect(result.error?.message).toContain(message);
	expect(sim.stats.requests).toHaveLength(0);
});

test('a missing input binary field is refused before anything is uploaded', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generate({ inputBinaryFields: 'front, back' })],
		input: [photoItem(['front'])],
	});

	expect(result.error?.message).toContain(
		`'Input Binary Fields': the input item has no binary field 'back'`,
	);
	expect(sim.stats.requests).toHaveLength(0);
});

test('codes typed in any case are sent in the form the spec shows', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generate({ prompt: 'bottle', resolution: '2K', outputLanguage: 'EN-US' })],
	});

	expect(result.error).toBeUndefined();
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({ resolution: '2k', output_language: 'en-us' });
});

test('Plan Prompt and Series Style Guide travel as plan_prompt and series_style_guide', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: 1,
				parameters: {
					resource: 'image',
					operation: 'generate',
					prompt: 'hero banner',
					size: '61:25',
					options: {
						planPrompt: ' Bottle on a trail at dawn ',
						seriesStyleGuide: 'Warm light, muted greens',
					},
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	const [task] = [...sim.tasks.values()];
	expect(task.body).toMatchObject({
		plan_prompt: 'Bottle on a trail at dawn',
		series_style_guide: 'Warm light, muted greens',
	});
});

test('Image URLs and Input Binary Fields are both sent, as saved workflows expect', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generate({ prompt: '', imageUrls: 'https://x.test/1.png', inputBinaryFields: 'front' }),
		],
		input: [photoItem(['front'])],
	});
	expect(result.error).toBeUndefined();
	const urls = sim.tasks.get(String(result.items[0].json.task_id))?.body.image_urls as string[];
	const uploads = sim.stats.byRoute.upload ?? 0;
	expect(urls).toHaveLength(2);
	expect(urls[0]).toBe('https://x.test/1.png');
	expect(uploads).toBe(1);
});
