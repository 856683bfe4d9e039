import { testCredential } from '../harness/credentialTester';
import { useSimulator } from '../harness/simulator';
import type { ForeignKind, ForeignOrigin } from '../simulator/foreign-origins';
import { startForeignOrigin } from '../simulator/foreign-origins';

// The cases the real-n8n suite also runs (valid and wrong key, the foreign origins) are checked
// here too because this run takes a second; the error shapes, 403 and 5xx are checked only here.

const simulator = useSimulator();
const PROBE = '/v1/open/tasks/task_credential_check';

const foreign: ForeignOrigin[] = [];
async function origin(kind: ForeignKind, redirectTo?: string): Promise<ForeignOrigin> {
	const started = await startForeignOrigin(kind, { redirectTo });
	foreign.push(started);
	return started;
}
afterEach(async () => {
	await Promise.all(foreign.splice(0).map((o) => o.close()));
});

test('the valid key passes: the service answers the probe with its envelope (task unknown, 404)', async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: `${sim.baseUrl}/`, apiKey: sim.apiKey });

	expect(result.status).toBe('OK');
	expect(result.message).toMatch(
		/^Connection successful: the service accepted the key \(request ID req_[0-9a-f]+\)$/,
	);
	// The same probe without a key must be refused, or the 404 would prove nothing.
	expect(sim.stats.requests).toMatchObject([
		{ route: 'task', status: 404, path: PROBE, authorization: `Bearer ${sim.apiKey}` },
		{ route: 'task', status: 401, path: PROBE, authorization: undefined },
	]);
});

test('the valid key passes when the keyless probe is turned away with 403, as an API gateway does', async () => {
	const sim = simulator();
	// The keyed probe gets the service's own answer; the keyless one a gateway's 403 (AWS's words).
	sim.addFault({ route: 'task', delayMs: 0 });
	sim.addFault({ route: 'task', status: 403, message: 'Missing Authentication Token' });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result.status).toBe('OK');
	expect(result.message).toMatch(
		/^Connection successful: the service accepted the key \(request ID req_[0-9a-f]+\)$/,
	);
	expect(sim.stats.requests).toMatchObject([
		{ route: 'task', status: 404, path: PROBE, authorization: `Bearer ${sim.apiKey}` },
		{ route: 'task', status: 403, path: PROBE, authorization: undefined },
	]);
});

test('a Base URL with an extra path (/v1) fails: the service answers there without checking the key', async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: `${sim.baseUrl}/v1`, apiKey: sim.apiKey });

	expect(result).toEqual({
		status: 'Error',
		message: `${sim.baseUrl}/v1 answers the same with or without a key, so it is not the service. Remove /v1 from 'Base URL'. (HTTP 404 without a key)`,
	});
});

test.each(['nested', 'detail', 'msg'] as const)(
	'the valid key passes when errors come in the %s shape',
	async (errorShape) => {
		const sim = simulator();
		sim.configure({ errorShape });
		expect(await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey })).toMatchObject({
			status: 'OK',
		});
	},
);

test("a wrong key fails with the service's words and request id", async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: 'wrong-key' });

	expect(result.status).toBe('Error');
	expect(result.message).toMatch(
		/^The service rejected the API key\. Copy the key again from your account\. The service said: "Invalid or missing API key" \(request ID req_/,
	);
});

test('a key the service refuses (403) fails, saying a member-level key is needed', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 403 });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result).toMatchObject({
		status: 'Error',
		message: expect.stringContaining('the service needs a full member-level key'),
	});
});

test('a service error (503) is not a pass, and says it came from the service', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 503 });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result).toMatchObject({
		status: 'Error',
		message: expect.stringMatching(
			/^The service could not answer now \("Simulated 503"\)\. Try again later \(HTTP 503, request ID req_/,
		),
	});
});

test('an address that redirects names the address to use, and the key goes no further', async () => {
	const sim = simulator();
	const http = await origin('redirect', sim.baseUrl);
	const result = await testCredential({ baseUrl: http.baseUrl, apiKey: sim.apiKey });

	expect(result).toEqual({
		status: 'Error',
		message: `'Base URL' forwards to ${sim.baseUrl}: enter ${sim.baseUrl} as 'Base URL'. The key is only sent to the URL you enter. (HTTP 301)`,
	});
	expect(sim.stats.requests).toHaveLength(0);
});

test('a redirect to a sign-in page is named, and not offered as the Base URL', async () => {
	const portal = await origin('signIn');
	const result = await testCredential({ baseUrl: portal.baseUrl, apiKey: 'sk-some-key-123' });

	expect(result).toEqual({
		status: 'Error',
		message: `'Base URL' forwards to ${portal.baseUrl}/login?next=${encodeURIComponent(PROBE)}, which is not the service (a sign-in page?). Check 'Base URL'. (HTTP 302)`,
	});
	expect(portal.requests).toHaveLength(1);
});

test.each([
	['badGateway', 'a web page titled "502 Bad Gateway" (HTTP 502 Bad Gateway)'],
	['website', 'a web page titled "Acme Outdoor Gear" (HTTP 200 OK)'],
	['notFoundPage', 'a web page titled "Page not found" (HTTP 404 Not Found)'],
	[
		'notFoundJson',
		'a reply that is not the service\'s: {"error":"Not Found","status":404} (HTTP 404 Not Found)',
	],
] as const)(
	'an address that is not the service (%s) fails, saying what answered',
	async (kind, found) => {
		const other = await origin(kind);
		const result = await testCredential({ baseUrl: other.baseUrl, apiKey: 'sk-some-key-123' });

		expect(result).toEqual({
			status: 'Error',
			message: `${other.baseUrl} answered with ${found}, not as the Product Image Generation Service answers. Check 'Base URL': the URL your provider gave you, without /v1.`,
		});
	},
);

test('an address where nothing listens fails with the connection error', async () => {
	const result = await testCredential({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });

	expect(result).toEqual({
		status: 'Error',
		message:
			"Nothing answers at http://127.0.0.1:9: nothing listens there, or a firewall turned the connection away. Check 'Base URL' for a typo, and that this n8n can reach it. (network code ECONNREFUSED)",
	});
});

test('a Base URL that is not an http(s) URL fails before any request', async () => {
	expect(await testCredential({ baseUrl: 'api.example.com', apiKey: 'k' })).toMatchObject({
		status: 'Error',
		message: expect.stringContaining('must start with https://'),
	});
});

test('the key never appears in a message, even when a reply echoes it', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 401, body: 'echoHeaders' });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result.status).toBe('Error');
	expect(result.message).not.toContain(sim.apiKey);
});
