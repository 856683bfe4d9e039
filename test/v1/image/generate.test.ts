import { photoItem } from '../../harness/fixtures';
import { runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { FIVE_ITEMS, runOn, submittingNode } from '../../harness/operations';
import {
	SPEC_EXTRA,
	SPEC_URLS,
	expectNoGenerationLimit,
	expectRefusedBeforeAnyRequest,
	expectSpecBody,
	expectUrlThenUploads,
} from '../../harness/versionCases';

// Version 1's Submit Generation (No Wait): its fields at the top of the panel, both image inputs
// read together, and its labels in the errors.

const simulator = useSimulator();

const generate = (extra: Record<string, unknown> = {}) => ({
	typeVersion: 1,
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', ...extra },
});

test('submits the spec body and outputs task_id and status without waiting', async () => {
	await expectSpecBody(
		simulator(),
		generate({
			imageUrls: SPEC_URLS,
			productName: 'Steel bottle',
			sellingPoints: 'Cold 24 h',
			platform: 'amazon',
			size: '4:3',
			resolution: '2k',
			outputLanguage: 'en-us',
			options: {
				extraBodyFields: SPEC_EXTRA,
			},
		}),
	);
});

test('image URLs given as a list, plus input binary fields uploaded first', async () => {
	await expectUrlThenUploads(
		simulator(),
		generate({
			prompt: '',
			imageUrls: ['https://x.test/1.png'],
			inputBinaryFields: 'front, side',
		}),
	);
});

test.each([
	[{ size: '16x9' }, "'Size'"],
	[{ size: '0:1' }, "'Size'"],
	[{ options: { extraBodyFields: '[1,2]' } }, "'Extra Body Fields'"],
])('bad parameters %j are refused before any request', async (parameters, message) => {
	await expectRefusedBeforeAnyRequest(simulator(), generate(parameters), message);
});

test('a missing input binary field is refused before anything is uploaded', async () => {
	await expectRefusedBeforeAnyRequest(
		simulator(),
		generate({ inputBinaryFields: 'front, back' }),
		`'Input Binary Fields': the input item has no binary field 'back'`,
		[photoItem(['front'])],
	);
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
			generate({
				prompt: 'hero banner',
				size: '61:25',
				options: {
					planPrompt: ' Bottle on a trail at dawn ',
					seriesStyleGuide: 'Warm light, muted greens',
				},
			}),
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

describe('Max Generations per Run', () => {
	const run = async (maxGenerations: string | number, input = FIVE_ITEMS) => {
		const sim = simulator();
		const result = await runOn(
			sim,
			[submittingNode({ maxGenerations }, { typeVersion: 1 })],
			input,
		);
		return { sim, result };
	};

	test('more items than the limit stop the run before any request', async () => {
		const { sim, result } = await run(4);

		expect(result.error?.message).toContain("more than 'Max Generations per Run' (4)");
		expect(sim.stats.requests).toHaveLength(0);
	});

	test.each([
		['a fraction', 1.5, '1.5'],
		['zero', 0, '0'],
		['a negative number', -2, '-2'],
		['a word', '={{ "three" }}', '"three"'],
	])('a limit that is %s stops the run before any request', async (_, maxGenerations, shown) => {
		const { sim, result } = await run(maxGenerations, FIVE_ITEMS.slice(0, 2));

		expect(result.error?.message).toBe(
			`'Max Generations per Run': must be a whole number of at least 1, got ${shown}`,
		);
		expect(sim.stats.requests).toHaveLength(0);
	});

	// Where a limit of 0 is refused, an empty limit is still no limit, not 0.
	test.each([
		['empty', ''],
		['an expression that gives nothing', '={{ null }}'],
	])('a limit left %s is no limit', async (_, maxGenerations) => {
		await expectNoGenerationLimit(simulator(), 1, maxGenerations);
	});
});
