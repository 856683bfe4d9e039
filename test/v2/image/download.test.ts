import { readPngInfo } from '../../simulator';
import { binaryBytes, runWorkflow } from '../../harness/engine';
import { credentialsFor, useSimulator } from '../../harness/simulator';
import { generatedImageUrl } from '../../harness/operations';

const simulator = useSimulator();

const generateAndWait = {
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'x',
		options: { waiting: { value: { initialDelay: 0, pollInterval: 0.1 } } },
	},
};

test('image/download streams an address into a binary field, with the MIME type of the reply', async () => {
	const sim = simulator();
	const address = await generatedImageUrl(sim);

	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'download',
					url: address,
					options: { binaryPropertyName: 'photo', fileName: 'hero.png' },
				},
			},
		],
	});

	expect(result.error).toBeUndefined();
	const binary = result.items[0].binary?.photo;
	expect(binary?.mimeType).toBe('image/png');
	expect(binary?.fileName).toBe('hero.png');
	expect(result.items[0].json).toMatchObject({
		url: address,
		fileName: 'hero.png',
		mimeType: 'image/png',
	});
	expect(readPngInfo(await binaryBytes(result, result.items[0], 'photo')).width).toBeGreaterThan(0);
});

test.each(['javascript:alert(1)', 'file:///etc/hosts', 'not a url'])(
	'image/download refuses %j before any request',
	async (url) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [{ parameters: { resource: 'image', operation: 'download', url } }],
		});

		expect(result.error?.message).toContain("'URL'");
		expect(sim.stats.requests).toHaveLength(0);
	},
);

test('downloads from another origin carry no Authorization header, also after a redirect', async () => {
	const sim = simulator();
	for (const downloads of ['cdn', 'redirect'] as const) {
		sim.reset();
		sim.configure({ downloads });
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generateAndWait],
		});

		expect(result.error).toBeUndefined();
		expect(result.items[0].binary?.data.mimeType).toBe('image/png');
		const cdnRequests = sim.stats.requests.filter((entry) => entry.origin === 'cdn');
		expect(cdnRequests.length).toBeGreaterThan(0);
		expect(cdnRequests.every((entry) => entry.authorization === undefined)).toBe(true);
		expect(sim.stats.cdnAuthRejected).toBe(0);
	}
});

test('API calls ask for JSON and downloads for an image; only a submit carries the request id the node made', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'redirect' });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait],
	});

	expect(result.error).toBeUndefined();
	const seen = (route: string) => sim.stats.requests.filter((entry) => entry.route === route);
	expect(
		seen('submit').map(({ accept, requestIdHeader }) => ({ accept, requestIdHeader })),
	).toEqual([
		{ accept: 'application/json', requestIdHeader: expect.stringMatching(/^n8n-[0-9a-f-]{36}$/) },
	]);
	expect(seen('task').length).toBeGreaterThan(0);
	for (const entry of seen('task')) {
		expect(entry).toMatchObject({ accept: 'application/json' });
		expect(entry.requestIdHeader).toBeUndefined();
	}
	// The download asks the service, is redirected to the cdn, and asks there again.
	expect([...seen('asset'), ...seen('cdn')].map(({ accept }) => accept)).toEqual([
		'image/*, */*',
		'image/*, */*',
	]);
});

test('a download redirected to a host that refuses it (403) blames that host, not the key', async () => {
	const sim = simulator();
	sim.configure({ downloads: 'redirect' });
	sim.addFault({ route: 'cdn', status: 403 });
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [generateAndWait],
	});

	const cdnHost = new URL(sim.cdnUrl).host;
	expect(result.error?.message).toBe(`${cdnHost} refused the image download [item 0]`);
	expect(result.error?.httpCode).toBe('403');
	expect(result.error?.description).toContain(
		`${cdnHost} refused the download (HTTP 403). The API key goes to the service's host only`,
	);
});
