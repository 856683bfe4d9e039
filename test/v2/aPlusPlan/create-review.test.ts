import { runWorkflow } from '../../harness/engine';
import { photoUrls } from '../../harness/operations';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { SPEC_MODULES } from '../../harness/specModules';

// What a person approves before a plan's modules become billed images.
const simulator = useSimulator();

const NOTES =
	'Check every product fact against the listing before publishing; follow amazon A+ content rules (no prices, no competitor references, no unverifiable claims).';
const STYLE =
	'Clean studio light, neutral warm background, consistent soft shadows across all modules; typography sans-serif; market US.';

async function plan(modules: string[], splitModules: boolean) {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: 2,
				parameters: {
					resource: 'aPlusPlan',
					operation: 'create',
					descriptionSource: 'define',
					productDescription: 'Insulated steel bottle',
					imageUrls: photoUrls(1),
					modules,
					options: { splitModules },
				},
			},
		],
	});
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
}

test('a plan of 1 module: the image count, the notes, the module with its size and prompt, the style', async () => {
	const [json] = await plan(['hero'], false);

	expect(json.images_to_bill).toBe(1);
	expect(json.review_text).toBe(
		[
			'Generating this plan bills 1 image, one per module.',
			'',
			'Notes to check:',
			NOTES,
			'',
			'Modules:',
			'1. hero, 1464x600: A+ module "hero" (Premium first-screen key visual, 1464x600) for Insulated steel bottle: show the product from the reference images, keep its shape and colors exact, copy in en-US.',
			'',
			'Style for every image:',
			STYLE,
		].join('\n'),
	);
});

test('a plan of all 17 modules lists each in the order planned, and bills 17 images', async () => {
	const ids = SPEC_MODULES.map(([id]) => id);
	const [json] = await plan(ids, false);
	const prompts = (json.modules as Array<{ recommended_prompt: string }>).map(
		(module) => module.recommended_prompt,
	);

	expect(json.images_to_bill).toBe(17);
	expect(json.review_text).toBe(
		[
			'Generating this plan bills 17 images, one per module.',
			'',
			'Notes to check:',
			NOTES,
			'',
			'Modules:',
			...SPEC_MODULES.map(
				([id, , width, height], index) =>
					`${index + 1}. ${id}, ${width}x${height}: ${prompts[index]}`,
			),
			'',
			'Style for every image:',
			STYLE,
		].join('\n'),
	);
	expect(prompts.every((prompt, index) => prompt.startsWith(`A+ module "${ids[index]}"`))).toBe(
		true,
	);
});

test('One Item per Module: every module item carries the whole plan’s review, no merging needed', async () => {
	const whole = await plan(['hero', 'core', 'size'], false);
	const items = await plan(['hero', 'core', 'size'], true);

	expect(items).toHaveLength(3);
	for (const json of items) {
		expect(json.images_to_bill).toBe(3);
		expect(json.review_text).toBe(whole[0].review_text);
	}
	expect(String(whole[0].review_text).split('\n').slice(5, 9)).toEqual([
		'Modules:',
		expect.stringMatching(/^1\. hero, 1464x600: A\+ module "hero"/),
		expect.stringMatching(/^2\. core, 970x600: A\+ module "core"/),
		expect.stringMatching(/^3\. size, 220x220: A\+ module "size"/),
	]);
});

test('a plan from an analysis hands on its own review, not the analysis’s', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				typeVersion: 2,
				parameters: { resource: 'analysis', operation: 'analyze', imageUrls: photoUrls(1) },
			},
			{
				typeVersion: 2,
				parameters: {
					resource: 'aPlusPlan',
					operation: 'create',
					imageUrls: photoUrls(1),
					modules: ['hero'],
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	const [json] = result.items.map((item) => item.json);
	expect(String(json.review_text).startsWith('Generating this plan bills 1 image')).toBe(true);
	expect(json).not.toHaveProperty('facts_to_confirm');
	expect(json).not.toHaveProperty('facts_to_confirm_count');
	expect(json).not.toHaveProperty('input_fields');
});
