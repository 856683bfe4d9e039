import { createServer as createHttpServer } from 'node:http';
import type { OutgoingHttpHeaders } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

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
const standIns: Server[] = [];
afterEach(async () => {
	await Promise.all(foreign.splice(0).map((o) => o.close()));
	await Promise.all(standIns.splice(0).map(close));
});

interface StandInReply {
	status: number;
	/** The status line's reason phrase; Node's own for the status when not given. */
	reason?: string;
	headers?: OutgoingHttpHeaders;
	body?: string;
}

/** A server answering every request with `reply(authorization)`: what the foreign origins lack. */
async function standIn(
	reply: (authorization: string | undefined) => StandInReply,
): Promise<string> {
	const server = createHttpServer((request, response) => {
		request.resume();
		const { status, reason, headers = {}, body = '' } = reply(request.headers.authorization);
		const allHeaders = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
		if (reason === undefined) response.writeHead(status, allHeaders);
		else response.writeHead(status, reason, allHeaders);
		response.end(body);
	});
	return await listen(server);
}

/** Its sockets go too: a client left holding one would keep the server open. */
async function close(server: Server): Promise<void> {
	const closed = new Promise((resolve) => server.close(resolve));
	for (const socket of sockets.get(server) ?? []) socket.destroy();
	await closed;
}
const sockets = new Map<Server, Set<Socket>>();

async function listen(server: Server): Promise<string> {
	standIns.push(server);
	const open = new Set<Socket>();
	sockets.set(server, open);
	server.on('connection', (socket: Socket) => {
		open.add(socket);
		socket.on('close', () => open.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const notTheService = (baseUrl: string, found: string) =>
	`${baseUrl} answered with ${found}, not as the Product Image Generation Service answers. Check 'Base URL': the URL your provider gave you, without /v1.`;

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
			"Nothing answers at http://127.0.0.1:9: nothing listens there, or a firewall turned the connection away. Check 'Base URL' for a typo, and that this n8n can reach it. (connection refused: ECONNREFUSED)",
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

describe('what answered, when it is not the service', () => {
	const answered = async (reply: StandInReply) => {
		const baseUrl = `http://${await standIn(() => reply)}`;
		return { baseUrl, result: await testCredential({ baseUrl, apiKey: 'sk-some-key-123' }) };
	};

	test('a web page without a title is named a web page, and nothing more', async () => {
		const { baseUrl, result } = await answered({
			status: 200,
			headers: { 'content-type': 'text/html; charset=utf-8' },
			body: '<!DOCTYPE html><html><body><p>Welcome.</p></body></html>',
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(baseUrl, 'a web page (HTTP 200 OK)'),
		});
	});

	test("a JSON reply that is not the service's is quoted, cut at 120 characters", async () => {
		const json = { error: 'Not Found', path: '/v1/open/tasks/'.padEnd(200, 'x') };
		const { baseUrl, result } = await answered({
			status: 404,
			headers: { 'content-type': 'application/json; charset=utf-8' },
			body: JSON.stringify(json),
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(
				baseUrl,
				`a reply that is not the service's: ${JSON.stringify(json).slice(0, 120)} (HTTP 404 Not Found)`,
			),
		});
		expect(JSON.stringify(json).length).toBeGreaterThan(120);
	});

	test('a plain-text reply is quoted on one line, with its type but not its charset', async () => {
		const { baseUrl, result } = await answered({
			status: 503,
			headers: { 'content-type': 'text/plain; charset=utf-8' },
			body: '  upstream connect error\n\n\tor disconnect   before headers  \n',
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(
				baseUrl,
				'"upstream connect error or disconnect before headers" (text/plain) (HTTP 503 Service Unavailable)',
			),
		});
	});

	test('a content type written with a space before its charset is named without the space', async () => {
		const { baseUrl, result } = await answered({
			status: 503,
			headers: { 'content-type': 'text/plain ; charset=utf-8' },
			body: 'Service Unavailable',
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(
				baseUrl,
				'"Service Unavailable" (text/plain) (HTTP 503 Service Unavailable)',
			),
		});
	});

	test('a reply without a reason phrase (HTTP/2 has none) gives its status code alone', async () => {
		const { baseUrl, result } = await answered({
			status: 200,
			reason: '',
			headers: { 'content-type': 'text/plain' },
			body: 'OK',
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(baseUrl, '"OK" (text/plain) (HTTP 200)'),
		});
	});

	test('a long plain-text reply is cut at 120 characters', async () => {
		const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
		const { baseUrl, result } = await answered({
			status: 200,
			headers: { 'content-type': 'text/plain' },
			body: words,
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(baseUrl, `"${words.slice(0, 120)}" (text/plain) (HTTP 200 OK)`),
		});
	});

	test('an empty reply without a type is named so', async () => {
		const { baseUrl, result } = await answered({ status: 200 });

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(baseUrl, 'an empty reply (HTTP 200 OK)'),
		});
	});

	test("a request-id header not shaped req_… does not make a reply the service's", async () => {
		const { baseUrl, result } = await answered({
			status: 404,
			headers: { 'content-type': 'application/json', 'x-request-id': '5f0c6a7e-2b1d' },
			body: '{"detail":"Not Found"}',
		});

		expect(result).toEqual({
			status: 'Error',
			message: notTheService(
				baseUrl,
				`a reply that is not the service's: {"detail":"Not Found"} (HTTP 404 Not Found)`,
			),
		});
	});
});

describe('redirects the probe is given', () => {
	const redirected = async (status: number, location?: string) => {
		const address = await standIn(() => ({
			status,
			headers: location === undefined ? {} : { location },
		}));
		const baseUrl = `http://${address}`;
		return { baseUrl, result: await testCredential({ baseUrl, apiKey: 'sk-some-key-123' }) };
	};

	test('a Location that is not a URL is quoted (its first 200 characters)', async () => {
		const location = `http://[${'x'.repeat(250)}`;
		const { result } = await redirected(302, location);

		expect(result).toEqual({
			status: 'Error',
			message: `'Base URL' forwards to "${location.slice(0, 200)}", which is not a URL. Check 'Base URL'. (HTTP 302)`,
		});
	});

	test('a redirect without a Location says so', async () => {
		const { baseUrl, result } = await redirected(307);

		expect(result).toEqual({
			status: 'Error',
			message: `${baseUrl} forwards the request without saying where to. Check 'Base URL'. (HTTP 307)`,
		});
	});

	test('a redirect to the probe under a longer path offers that path as the Base URL', async () => {
		const { result } = await redirected(308, `https://api.example.com/gateway${PROBE}`);

		expect(result).toEqual({
			status: 'Error',
			message: `'Base URL' forwards to https://api.example.com/gateway: enter https://api.example.com/gateway as 'Base URL'. The key is only sent to the URL you enter. (HTTP 308)`,
		});
	});

	test('a 300 (Multiple Choices) with a Location is read as a redirect', async () => {
		const { result } = await redirected(300, `https://api.example.com/gateway${PROBE}`);

		expect(result).toEqual({
			status: 'Error',
			message: `'Base URL' forwards to https://api.example.com/gateway: enter https://api.example.com/gateway as 'Base URL'. The key is only sent to the URL you enter. (HTTP 300)`,
		});
	});

	test('a redirect to a page below the probe is not offered as the Base URL', async () => {
		const { result } = await redirected(302, `${PROBE}/login`);

		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				new RegExp(
					`^'Base URL' forwards to http://127\\.0\\.0\\.1:\\d+${PROBE}/login, which is not the service \\(a sign-in page\\?\\)\\. Check 'Base URL'\\. \\(HTTP 302\\)$`,
				),
			),
		});
	});
});

describe("the service's own replies to the keyed probe", () => {
	const json = { 'content-type': 'application/json' };
	/** The keyed probe gets `status` with `envelope`; the keyless one the service's 401. */
	const serviceAnswering = async (status: number, envelope: Record<string, unknown>) => {
		const baseUrl = `http://${await standIn((authorization) =>
			authorization
				? { status, headers: json, body: JSON.stringify(envelope) }
				: {
						status: 401,
						headers: json,
						body: '{"code":401,"message":"Invalid or missing API key","request_id":"req_keyless"}',
					},
		)}`;
		return await testCredential({ baseUrl, apiKey: 'sk-some-key-123' });
	};

	test.each([200, 201, 400, 422])(
		'the valid key passes when the service answers the probe %i in its envelope (2xx, or a task ID it finds malformed)',
		async (status) => {
			expect(
				await serviceAnswering(status, { code: status, message: 'Task ID', request_id: 'req_ok' }),
			).toEqual({
				status: 'OK',
				message: 'Connection successful: the service accepted the key (request ID req_ok)',
			});
		},
	);

	test.each([
		[
			401,
			'The service rejected the API key. Copy the key again from your account. The service said: "unauthorized" (request ID req_quiet).',
		],
		[
			403,
			'The API key is not allowed to do this: the service needs a full member-level key. The service said: "forbidden" (request ID req_quiet).',
		],
		[
			503,
			'The service could not answer now ("no message"). Try again later (HTTP 503, request ID req_quiet).',
		],
	])(
		"a %i in the service's envelope with no message quotes a plain word instead",
		async (status, message) => {
			expect(await serviceAnswering(status, { code: status, request_id: 'req_quiet' })).toEqual({
				status: 'Error',
				message,
			});
		},
	);

	test("the key, quoted back in the service's words, is shown as [redacted]", async () => {
		const result = await serviceAnswering(401, {
			code: 401,
			message: 'No account has the key sk-some-key-123',
			request_id: 'req_echo',
		});

		expect(result).toEqual({
			status: 'Error',
			message:
				'The service rejected the API key. Copy the key again from your account. The service said: "No account has the key [redacted]" (request ID req_echo).',
		});
	});

	test("a status below 200 is not a pass, even in the service's envelope", async () => {
		// Node's HTTP server writes no status below 100: a bare socket does.
		const body = '{"code":404,"message":"Task not found","request_id":"req_low"}';
		const server = createTcpServer((socket) =>
			socket.once('data', () =>
				socket.end(
					`HTTP/1.1 099 Low\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
				),
			),
		);
		const result = await testCredential({
			baseUrl: `http://${await listen(server)}`,
			apiKey: 'sk-some-key-123',
		});

		expect(result).toEqual({
			status: 'Error',
			message:
				'The service could not answer now ("Task not found"). Try again later (HTTP 99, request ID req_low).',
		});
	});
});

test('an address at the root that answers the same without a key is told to be checked, not trimmed', async () => {
	// The service's envelope either way: a stub or a mock that never looks at the key.
	const baseUrl = `http://${await standIn(() => ({
		status: 404,
		headers: { 'content-type': 'application/json' },
		body: '{"code":404,"message":"Task not found","request_id":"req_stub"}',
	}))}`;
	const result = await testCredential({ baseUrl, apiKey: 'sk-some-key-123' });

	expect(result).toEqual({
		status: 'Error',
		message: `${baseUrl} answers the same with or without a key, so it is not the service. Check 'Base URL'. (HTTP 404 without a key)`,
	});
});

test('https to a server that speaks plain http is told to use the http:// address', async () => {
	const address = await standIn(() => ({ status: 200 }));
	const result = await testCredential({ baseUrl: `https://${address}`, apiKey: 'k' });

	expect(result).toEqual({
		status: 'Error',
		message: `https://${address} does not answer over https. If your provider's URL starts with http://, enter that as 'Base URL'. (secure connection failed: EPROTO)`,
	});
});

test('an address that answers with something that is not HTTP could not be reached, in its own words', async () => {
	const server = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
	const address = await listen(server);
	const result = await testCredential({ baseUrl: `http://${address}`, apiKey: 'k' });

	// Node's parser gives no network code, so its own words are all there is (their tail varies
	// with Node's version).
	expect(result).toEqual({
		status: 'Error',
		message: expect.stringMatching(
			new RegExp(
				`^http://${address.replace(/\./g, '\\.')} could not be reached: Parse Error: Expected HTTP/[^.]*\\. Check 'Base URL' for a typo, and that this n8n can reach it\\.$`,
			),
		),
	});
});

test('a credential without a key sends a bare "Bearer", and the service refuses it', async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: sim.baseUrl });

	expect(result.message).toMatch(
		/^The service rejected the API key\. Copy the key again from your account\. The service said: "Invalid or missing API key" \(request ID req_[0-9a-f]+\)\.$/,
	);
	// The empty key leaves "Bearer " (the server drops the trailing space), not a stand-in word.
	expect(sim.stats.requests).toMatchObject([{ route: 'task', authorization: 'Bearer' }]);
});
