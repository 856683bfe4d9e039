import { photoItem } from '../../harness/fixtures';
import { useSimulator } from '../../harness/simulator';
import { runOn } from '../../harness/operations';

// The options and input forms no other suite of A+ Plan → Create sets, each seen in the requests.

const simulator = useSimulator();

test('Images From Both, a Language typed under Other, Items in Parallel and a Timeout', async () => {
	const sim = simulator();
	const result = await runOn(
		sim,
		[
			{
				parameters: {
					resource: 'aPlusPlan',
					operation: 'create',
					modules: ['core'],
					descriptionSource: 'define',
					productDescription: 'Steel bottle',
					imageSource: 'both',
					imageUrls: 'https://img.test/bottle.jpg',
					inputBinaryFields: 'data',
					planDetails: {
						language: { value: { language: 'custom', customLanguage: 'fr-BE' } },
					},
					options: { maxConcurrency: 1, timeout: 60 },
				},
			},
		],
		[photoItem()],
	);

	expect(result.error).toBeUndefined();
	expect(sim.stats.byRoute.upload).toBe(1);
	const [plan] = sim.stats.requests.filter((request) => request.route === 'plan');
	expect(plan.planTarget).toMatchObject({ language: 'fr-BE' });
	expect(result.items[0].json.language).toBe('fr-BE');
});
