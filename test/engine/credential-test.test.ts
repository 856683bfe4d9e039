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
		/^Connection successful: the service accepted the key \[request req_[0-9a-f]+\]$/,
	);
	// The same probe without a key must be refused, or the 404 would prove nothing.
	expect(sim.stats.requests).toMatchObject([
		{ route: 'task', status: 404, path: PROBE, authorization: `Bearer ${sim.apiKey}` },
		{ route: 'task', status: 401, path: PROBE, authorization: undefined },
	]);
});

test('a Base URL with an extra path (/v1) fails: the service answers there without checking the key', async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: `${sim.baseUrl}/v1`, apiKey: sim.apiKey });

	expect(result).toEqual({
		status: 'Error',
		message: `${sim.baseUrl}/v1 answers GET ${PROBE} the same way without a key (HTTP 404), so it did not check the key: it is not the service's task URL. Leave out the path /v1: 'Base URL' is the service's URL without /v1.`,
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
		/^The service rejected the API key \(HTTP 401: Invalid or missing API key\)\. Copy the key again from your account\. \[request req_/,
	);
});

test('a key the service refuses (403) fails, saying a member-level key is needed', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 403 });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result).toMatchObject({
		status: 'Error',
		message: expect.stringContaining('It needs a full member-level key'),
	});
});

test('a service error (503) is not a pass, and says it came from the service', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 503 });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result).toMatchObject({
		status: 'Error',
		message: expect.stringMatching(
			/^The service answered HTTP 503: Simulated 503\. Try again later\./,
		),
	});
});

test('an address that redirects names the address to use, and the key goes no further', async () => {
	const sim = simulator();
	const http = await origin('redirect', sim.baseUrl);
	const result = await testCredential({ baseUrl: http.baseUrl, apiKey: sim.apiKey });

	expect(result).toEqual({
		status: 'Error',
		message: `'Base URL' redirects (HTTP 301): enter the URL it redirects to, ${sim.baseUrl}, as 'Base URL'. The node sends the key to the host of 'Base URL' only and does not follow redirects.`,
	});
	expect(sim.stats.requests).toHaveLength(0);
});

test('a redirect to a sign-in page is named, and not offered as the Base URL', async () => {
	const portal = await origin('signIn');
	const result = await testCredential({ baseUrl: portal.baseUrl, apiKey: 'sk-some-key-123' });

	expect(result).toEqual({
		status: 'Error',
		message: `'Base URL' redirects (HTTP 302) to ${portal.baseUrl}/login?next=${encodeURIComponent(PROBE)}, which is not the service's task URL (a sign-in page?). Check 'Base URL'.`,
	});
	expect(portal.requests).toHaveLength(1);
});

test.each([
	['badGateway', 'HTTP 502 Bad Gateway with a web page titled "502 Bad Gateway"'],
	['website', 'HTTP 200 OK with a web page titled "Acme Outdoor Gear"'],
	['notFoundPage', 'HTTP 404 Not Found with a web page titled "Page not found"'],
	[
		'notFoundJson',
		'HTTP 404 Not Found with JSON that is not the service\'s reply (no request_id): {"error":"Not Found","status":404}',
	],
] as const)(
	'an address that is not the service (%s) fails, saying what answered',
	async (kind, found) => {
		const other = await origin(kind);
		const result = await testCredential({ baseUrl: other.baseUrl, apiKey: 'sk-some-key-123' });

		expect(result).toEqual({
			status: 'Error',
			message: `${other.baseUrl} is not the Product Image service: GET ${PROBE} answered ${found}. Check 'Base URL'.`,
		});
	},
);

test('an address where nothing listens fails with the connection error', async () => {
	const result = await testCredential({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });

	expect(result).toEqual({
		status: 'Error',
		message:
			"Could not reach http://127.0.0.1:9 (ECONNREFUSED): nothing accepts connections there. Check 'Base URL'.",
	});
});

test('a Base URL that is not an http(s) URL fails before any request', async () => {
	expect(await testCredential({ baseUrl: 'api.example.com', apiKey: 'k' })).toMatchObject({
		status: 'Error',
		message: expect.stringContaining('is not an http(s) URL'),
	});
});

test('the key never appears in a message, even when a reply echoes it', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 401, body: 'echoHeaders' });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result.status).toBe('Error');
	expect(result.message).not.toContain(sim.apiKey);
});
