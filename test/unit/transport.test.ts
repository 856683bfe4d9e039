import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { forEachLimited } from '../../nodes/ProductImage/router';
import {
	failureFromException,
	findEnvelopeCode,
	findNetworkCode,
	findRequestId,
	findServiceMessage,
	isTlsCode,
	parseRetryAfter,
	redactSecrets,
} from '../../nodes/ProductImage/transport/errors';
import {
	backoffDelay,
	isRetryable,
	isTransient,
	MAX_RETRY_AFTER_MS,
	RateLimitGate,
	retryDelay,
	sleepUnlessCancelled,
} from '../../nodes/ProductImage/transport/retry';
import { ENDPOINTS, taskPath } from '../../nodes/ProductImage/transport/request';
import {
	classifyJsonReply,
	looksLikeText,
	peekFirstChunk,
	xmlErrorHeadline,
} from '../../nodes/ProductImage/transport/send';
import type { RawReply } from '../../nodes/ProductImage/transport/send';
import { describeFailure, networkCodeNote } from '../../nodes/ProductImage/transport/guidance';
import { withExtension } from '../../nodes/ProductImage/helpers/download';

describe('findServiceMessage finds the message in any error shape', () => {
	test.each([
		[{ code: 400, message: 'bad size', request_id: 'r' }, 'bad size'],
		[{ error: { code: 'invalid', message: 'bad size' } }, 'bad size'],
		[{ detail: 'bad size' }, 'bad size'],
		[
			{ detail: [{ msg: 'size invalid' }, { msg: 'prompt missing' }] },
			'size invalid; prompt missing',
		],
		[{ code: 500, msg: 'oops', data: null }, 'oops'],
		[{ errors: [{ message: 'a' }] }, 'a'],
		[{ error: 'plain' }, 'plain'],
		[{}, undefined],
	])('%j', (body, expected) => {
		expect(findServiceMessage(body)).toBe(expected);
	});
});

test('envelope code and request id are found in the body or the header', () => {
	expect(findEnvelopeCode({ code: 4001 })).toBe(4001);
	expect(findEnvelopeCode({ error: { code: 'rate_limited' } })).toBe('rate_limited');
	expect(findRequestId({ request_id: 'req_1' })).toBe('req_1');
	expect(findRequestId({ detail: 'x' }, { 'x-request-id': 'req_2' })).toBe('req_2');
});

test('Retry-After is read as seconds or as an HTTP date', () => {
	const now = Date.parse('2026-01-01T00:00:00Z');
	expect(parseRetryAfter('3', now)).toBe(3000);
	expect(parseRetryAfter('0.5', now)).toBe(500);
	expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000);
	expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
	expect(parseRetryAfter('soon', now)).toBeUndefined();
	expect(parseRetryAfter(undefined, now)).toBeUndefined();
});

test('Retry-After seconds are the whole value: digits, then at most one decimal part', () => {
	const now = Date.parse('2026-01-01T00:00:00Z');
	expect(parseRetryAfter(' 1.25 ', now)).toBe(1250);
	// Not seconds: a number with words after it, or a sign before it.
	expect(parseRetryAfter('5 seconds', now)).toBeUndefined();
	expect(parseRetryAfter('-5', now) ?? 0).toBeGreaterThanOrEqual(0);
});

test('network codes are found through wrapped errors', () => {
	const system = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
		code: 'ECONNREFUSED',
	});
	const axios = Object.assign(new Error('wrapped'), { code: 'ERR_BAD_REQUEST', cause: system });
	expect(findNetworkCode({ message: 'outer', cause: axios })).toBe('ECONNREFUSED');
	expect(findNetworkCode(new Error('socket hang up'))).toBe('ECONNRESET');
	expect(findNetworkCode(new Error('timeout of 100ms exceeded'))).toBe('ETIMEDOUT');
	// An error that is its own cause is read a few levels deep, not for ever.
	const cyclic: { message: string; code: string; cause?: unknown } = {
		message: 'loop',
		code: 'ECONNRESET',
	};
	cyclic.cause = cyclic;
	expect(findNetworkCode(cyclic)).toBe('ECONNRESET');
	expect(findNetworkCode(new Error('something else'))).toBeUndefined();
});

test('the key is redacted wherever it appears, and any bearer token with it', () => {
	const key = 'sk-live-secret-123456';
	const echoed = `{"message":"bad request","headers":{"authorization":"Bearer ${key}","x":"1"}} key=${key}`;
	const redacted = redactSecrets(echoed, [key]);
	expect(redacted).not.toContain(key);
	expect(redactSecrets('Authorization: Bearer other-token', [])).not.toContain('other-token');
	expect(redactSecrets('nothing to hide', [key])).toBe('nothing to hide');
});

describe('retry policies', () => {
	const http = (status: number, processed = false) => ({
		kind: 'http' as const,
		status,
		processed,
	});
	const network = (networkCode: string) => ({ kind: 'network' as const, networkCode });
	const timeout = { kind: 'timeout' as const, networkCode: 'ETIMEDOUT' };

	test('reads retry on 429, 5xx, broken connections and timeouts, not on 4xx', () => {
		for (const failure of [
			http(429),
			http(500),
			http(503),
			network('ECONNRESET'),
			network('ECONNREFUSED'),
			timeout,
		]) {
			expect(isRetryable('read', failure)).toBe(true);
		}
		for (const failure of [
			http(400),
			http(401),
			http(404),
			http(410),
			{ kind: 'malformed' as const, status: 200 },
		]) {
			expect(isRetryable('read', failure)).toBe(false);
		}
	});

	test('billable calls retry only where nothing can have reached the service', () => {
		for (const failure of [
			http(429),
			network('ECONNREFUSED'),
			network('ENOTFOUND'),
			network('EAI_AGAIN'),
		]) {
			expect(isRetryable('billable', failure)).toBe(true);
		}
		// A gateway's 502/504 or a timeout may come while the service works on the request.
		for (const failure of [
			http(500),
			http(502, false),
			http(504, false),
			http(503),
			network('ECONNRESET'),
			timeout,
		]) {
			expect(isRetryable('billable', failure)).toBe(false);
		}
	});

	test('submit, analysis and planning share the billable policy', () => {
		expect(retryDelay('submit', http(502), 1)).toBeUndefined();
		expect(retryDelay('analysis', http(504), 1)).toBeUndefined();
		expect(retryDelay('plan', timeout, 1)).toBeUndefined();
		expect(retryDelay('plan', network('ENOTFOUND'), 1)).toBeGreaterThan(0);
		expect(retryDelay('taskQuery', http(504), 1)).toBeGreaterThan(0);
	});

	test('the wait is the Retry-After, bounded by the attempts, the cap and the deadline', () => {
		const limited = { ...http(429), retryAfterMs: 1500 };
		expect(retryDelay('taskQuery', limited, 1)).toBe(1500);
		expect(retryDelay('taskQuery', limited, 5)).toBeUndefined();
		expect(retryDelay('taskQuery', { ...limited, retryAfterMs: 3_600_000 }, 1)).toBeUndefined();
		expect(retryDelay('taskQuery', limited, 1, Date.now() + 1000)).toBeUndefined();
	});

	test('a Retry-After of exactly the cap is waited for; a pause ending on the deadline is not', () => {
		const limited = (retryAfterMs: number) => ({ ...http(429), retryAfterMs });
		expect(retryDelay('taskQuery', limited(MAX_RETRY_AFTER_MS), 1)).toBe(MAX_RETRY_AFTER_MS);
		expect(retryDelay('taskQuery', limited(MAX_RETRY_AFTER_MS + 1), 1)).toBeUndefined();
		const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
		try {
			expect(retryDelay('taskQuery', limited(1500), 1, 1_001_500)).toBeUndefined();
			expect(retryDelay('taskQuery', limited(1500), 1, 1_001_501)).toBe(1500);
		} finally {
			now.mockRestore();
		}
	});

	test('transient failures are marked as such', () => {
		for (const failure of [
			http(429),
			http(408),
			http(502),
			network('ECONNRESET'),
			network('ECONNREFUSED'),
			network('ENOTFOUND'),
			timeout,
		]) {
			expect(isTransient(failure)).toBe(true);
		}
		for (const failure of [http(400), http(401), http(404), { kind: 'malformed' as const }]) {
			expect(isTransient(failure)).toBe(false);
		}
	});

	test('backoff doubles per attempt with jitter, capped', () => {
		expect(backoffDelay(1, () => 0)).toBe(500);
		expect(backoffDelay(1, () => 1)).toBe(1000);
		expect(backoffDelay(3, () => 0)).toBe(2000);
		expect(backoffDelay(20, () => 1)).toBe(30000);
	});
});

describe('the shared rate-limit gate', () => {
	test('a 429 closes it for every lane; a longer pause wins; lanes get up to 20% jitter', () => {
		const gate = new RateLimitGate();
		const now = 1_000_000;
		expect(gate.delayFor(now)).toBe(0);
		gate.close(2000, now);
		gate.close(500, now + 100);
		expect(gate.delayFor(now + 100, () => 0)).toBe(1900);
		expect(gate.delayFor(now + 1000, () => 0)).toBe(1000);
		expect(gate.delayFor(now + 1000, () => 1)).toBe(1400);
		expect(gate.delayFor(now + 2000)).toBe(0);
	});

	test('a later, longer pause extends it; one ending at the same moment keeps the first jitter', () => {
		const gate = new RateLimitGate();
		const now = 1_000_000;
		gate.close(500, now);
		gate.close(2000, now + 100);
		expect(gate.delayFor(now + 100, () => 0)).toBe(2000);
		// Ends where the 2000 ms pause ends: the jitter stays 20% of 2000 ms, not of 1000 ms.
		gate.close(1000, now + 1100);
		expect(gate.delayFor(now + 1100, () => 1)).toBe(1400);
	});

	test('waiting at the gate ends at once when the execution is cancelled', async () => {
		// On the fake clock: ends in the millisecond of the cancel, 50 ms into a 10 s pause.
		jest.useFakeTimers();
		try {
			const gate = new RateLimitGate();
			gate.close(10_000);
			const controller = new AbortController();
			let ended: boolean | undefined;
			void gate.waitUntilOpen(controller.signal).then((open) => (ended = open));
			await jest.advanceTimersByTimeAsync(50);
			expect(ended).toBeUndefined();
			controller.abort();
			await jest.advanceTimersByTimeAsync(0);
			expect(ended).toBe(false);
		} finally {
			jest.useRealTimers();
		}
	});
});

test('task ids are encoded into one path segment; every endpoint sits below /v1/open/', () => {
	expect(taskPath('task_a/b')).toBe('/v1/open/tasks/task_a%2Fb');
	expect(Object.values(ENDPOINTS).every((path) => path.startsWith('/v1/open/'))).toBe(true);
});

test('download bodies are judged by their first bytes', () => {
	expect(looksLikeText(Buffer.from('<!DOCTYPE html><title>Sign in</title>'))).toBe(true);
	expect(looksLikeText(Buffer.from('\uFEFF  {"code": 403}'))).toBe(true);
	expect(
		looksLikeText(Buffer.from('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>')),
	).toBe(true);
	expect(
		looksLikeText(Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')),
	).toBe(false);
	expect(looksLikeText(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(false);
	expect(looksLikeText(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(false);
});

test('a file name takes the extension of its real type', () => {
	expect(withExtension('task_1-0', 'image/jpeg')).toBe('task_1-0.jpg');
	expect(withExtension('task_1-0', 'image/webp')).toBe('task_1-0.webp');
	expect(withExtension('front.jpeg', 'image/jpeg')).toBe('front.jpeg');
	// A name that promises another image type is corrected; any other extension is kept.
	expect(withExtension('front.png', 'image/jpeg')).toBe('front.jpg');
	expect(withExtension('trail.v2', 'image/png')).toBe('trail.v2.png');
	expect(withExtension('image', 'application/x-unknown')).toBe('image');
});

test('forEachLimited keeps at most the limit in flight and finishes every index', async () => {
	let inFlight = 0;
	let peak = 0;
	const done: number[] = [];
	await forEachLimited(7, 3, async (index) => {
		inFlight++;
		peak = Math.max(peak, inFlight);
		await new Promise((resolve) => setTimeout(resolve, 5 + ((index * 7) % 4)));
		inFlight--;
		done.push(index);
	});
	expect(peak).toBe(3);
	expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
});

test('forEachLimited starts no new work after a failure and raises it', async () => {
	const started: number[] = [];
	await expect(
		forEachLimited(10, 2, async (index) => {
			started.push(index);
			if (index === 1) throw new Error('item 1 failed');
			await new Promise((resolve) => setTimeout(resolve, 5));
		}),
	).rejects.toThrow('item 1 failed');
	expect(started.length).toBeLessThan(10);
});

test('sleepUnlessCancelled returns early once the signal aborts', async () => {
	// Real time, for what only it shows: a real timer and a real abort end the wait. The bound is
	// the wait's own length: a wait that missed the cancel would end only at 10 s. The exact
	// moment is checked on the fake clock (cancel-latency.test.ts).
	const controller = new AbortController();
	const started = Date.now();
	setTimeout(() => controller.abort(), 50);
	await expect(sleepUnlessCancelled(10_000, controller.signal)).resolves.toBe(false);
	expect(Date.now() - started).toBeLessThan(10_000);
	await expect(sleepUnlessCancelled(10)).resolves.toBe(true);
});

describe('peekFirstChunk leaves every byte to the next reader', () => {
	const body = () =>
		Readable.from([Buffer.from('first-'), Buffer.from('second-'), Buffer.from('third')], {
			objectMode: false,
		});

	test('a reader with a data listener', async () => {
		const stream = body();
		expect(String(await peekFirstChunk(stream))).toBe('first-');
		const chunks: Buffer[] = [];
		await new Promise<void>((resolve, reject) => {
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.once('end', resolve);
			stream.once('error', reject);
		});
		expect(Buffer.concat(chunks).toString()).toBe('first-second-third');
	});

	test('a pipe and an async iterator', async () => {
		const piped = body();
		await peekFirstChunk(piped);
		const sink: Buffer[] = [];
		await pipeline(
			piped,
			new Writable({ write: (chunk: Buffer, _encoding, done) => (sink.push(chunk), done()) }),
		);
		expect(Buffer.concat(sink).toString()).toBe('first-second-third');

		const iterated = body();
		await peekFirstChunk(iterated);
		const parts: Buffer[] = [];
		for await (const chunk of iterated) parts.push(chunk as Buffer);
		expect(Buffer.concat(parts).toString()).toBe('first-second-third');
	});
});

test("an error's title holds none of the service's words; its description quotes them short and on one line", () => {
	const dump = `Bad gateway <b>down</b>\n${'x-forwarded-for: 10.0.0.1\n'.repeat(100)}`;
	const { message, description } = describeFailure(
		{ kind: 'http', status: 502, serviceMessage: dump, requestId: 'req_1', code: 'upstream' },
		'taskQuery',
		1,
	);
	expect(message).toBe('A proxy or load balancer answered instead of the service');
	expect(description).toMatch(
		/^The reply said: "Bad gateway ‹b›down‹\/b› x-forwarded-for: 10\.0\.0\.1 .*…" \(code upstream\)\. Request ID: req_1\. /,
	);
	expect(description).not.toContain('\n');
	expect(description).not.toMatch(/[<>]/);
	expect(description.length).toBeLessThan(600);
});

test('XML errors of storage services read as code and message', () => {
	expect(
		xmlErrorHeadline(
			'<?xml version="1.0"?>\n<Error><Code>AccessDenied</Code><Message>Request has expired &amp; gone</Message></Error>',
		),
	).toBe('AccessDenied: Request has expired & gone');
	expect(xmlErrorHeadline('<Error><Code>NoSuchKey</Code></Error>')).toBe('NoSuchKey');
	expect(xmlErrorHeadline('<html><title>Error</title></html>')).toBeUndefined();
	expect(xmlErrorHeadline('plain text')).toBeUndefined();
});

describe('what a reply to an API call means', () => {
	const reply = (status: number, stream: unknown, headers: Record<string, unknown> = {}) =>
		({ status, headers, stream, url: 'https://api.example.com/v1/open/x' }) as RawReply;
	const MiB = 1024 * 1024;

	test('a redirect is a failure that says where it points, and its body is let go', async () => {
		const body = Readable.from([Buffer.from('moved')]);
		const outcome = await classifyJsonReply(
			reply(301, body, { location: 'https://api.example.com/' }),
		);

		expect(outcome).toEqual({
			ok: false,
			failure: { kind: 'redirect', status: 301, serviceMessage: 'https://api.example.com/' },
		});
		expect(body.destroyed).toBe(true);
	});

	test('a body n8n already read, as text or as an object, is taken as it is', async () => {
		const asText = await classifyJsonReply(reply(200, '{"code":200,"data":{"a":1}}'));
		const asObject = await classifyJsonReply(reply(200, { code: 200, data: { a: 1 } }));

		expect(asText).toEqual({
			ok: true,
			value: expect.objectContaining({ body: { code: 200, data: { a: 1 } } }),
		});
		expect(asObject).toEqual(asText);
	});

	test('a reply with no body is malformed, not too large, and an error without one quotes nothing', async () => {
		const empty = await classifyJsonReply(reply(200, undefined));
		const failed = await classifyJsonReply(reply(500, null));

		expect(empty).toEqual({ ok: false, failure: expect.objectContaining({ kind: 'malformed' }) });
		expect(failed).toEqual({
			ok: false,
			failure: expect.objectContaining({ kind: 'http', status: 500, serviceMessage: undefined }),
		});
	});

	test('a result over 10 MiB is refused as too large, streamed or as text', async () => {
		const big = `{"data":"${'x'.repeat(10 * MiB)}"}`;
		const streamed = await classifyJsonReply(
			reply(
				200,
				Readable.from([Buffer.from(big.slice(0, 6 * MiB)), Buffer.from(big.slice(6 * MiB))]),
			),
		);
		const asText = await classifyJsonReply(reply(200, big));
		const justUnder = await classifyJsonReply(reply(200, `{"d":"${'x'.repeat(10 * MiB - 8)}"}`));

		expect(streamed).toEqual({ ok: false, failure: { kind: 'tooLarge', status: 200 } });
		expect(asText).toEqual(streamed);
		expect(justUnder.ok).toBe(true);
	});

	test('an error body is read up to 64 KiB, cut where the limit falls', async () => {
		const text = 'e'.repeat(40 * 1024);
		const outcome = await classifyJsonReply(
			reply(500, Readable.from([Buffer.from(text), Buffer.from(text.toUpperCase())])),
		);

		expect(outcome.ok).toBe(false);
		const message = !outcome.ok ? String(outcome.failure.serviceMessage) : '';
		expect(message).toHaveLength(64 * 1024);
		expect(message).toBe(text + 'E'.repeat(24 * 1024));
		const asText = await classifyJsonReply(reply(500, text + text.toUpperCase()));
		expect(asText).toEqual(outcome);
	});

	test('an error inside a 2xx envelope takes its status from the code, when the code is one', async () => {
		const coded = await classifyJsonReply(
			reply(200, { code: 401, message: 'bad key', request_id: 'r1' }),
		);
		const beyond = await classifyJsonReply(reply(200, { code: 1001, message: 'quota' }));
		const notSuccess = await classifyJsonReply(reply(200, { success: false, code: 'E_QUOTA' }));

		expect(coded).toEqual({
			ok: false,
			failure: {
				kind: 'http',
				status: 401,
				code: 401,
				serviceMessage: 'bad key',
				requestId: 'r1',
				processed: true,
			},
		});
		expect(beyond).toEqual({
			ok: false,
			failure: expect.objectContaining({ status: 200, code: 1001, processed: true }),
		});
		expect(notSuccess).toEqual({
			ok: false,
			failure: expect.objectContaining({ status: 200, code: 'E_QUOTA', processed: true }),
		});
	});
});

test.each([
	['ETIMEDOUT', 'timeout'],
	['ECONNABORTED', 'timeout'],
	['ESOCKETTIMEDOUT', 'timeout'],
	['ECONNRESET', 'network'],
	['ECONNREFUSED', 'network'],
])('a request that threw with %s is a %s failure', (code, kind) => {
	const error = Object.assign(new Error(`request failed: ${code}`), { code });
	expect(failureFromException(error)).toMatchObject({ kind, networkCode: code });
});

test('a failure without a network code is no TLS failure', () => {
	expect(isTlsCode(undefined)).toBe(false);
});

// The names OpenSSL gives a refused certificate, as Node reports them in `error.code`.
const certificateCodes = [
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'CERT_REVOKED',
	'CRL_HAS_EXPIRED',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'ERROR_IN_CERT_NOT_AFTER_FIELD',
	'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'HOSTNAME_MISMATCH',
	'INVALID_CA',
	'INVALID_PURPOSE',
	'PATH_LENGTH_EXCEEDED',
];

test.each([
	...certificateCodes,
	'EPROTO',
	'ERR_SSL_WRONG_VERSION_NUMBER',
	'ERR_TLS_CERT_ALTNAME_INVALID',
])('%s is a TLS failure, not retried', (code) => {
	expect(isTlsCode(code)).toBe(true);
});

test.each(['ECONNRESET', 'ETIMEDOUT', 'EPROTONOSUPPORT', 'EPROTOTYPE', 'UND_ERR_SOCKET'])(
	'%s is no TLS failure: sent again',
	(code) => {
		expect(isTlsCode(code)).toBe(false);
		expect(isTransient({ kind: 'network', networkCode: code })).toBe(true);
	},
);

test.each(certificateCodes)('%s is found under the wrappers as a network code', (code) => {
	const wrapped = { message: 'Request failed', cause: { message: 'certificate refused', code } };
	expect(findNetworkCode(wrapped)).toBe(code);
});

test.each([
	['ECONNRESET', ' (connection reset: ECONNRESET)'],
	['ECONNREFUSED', ' (connection refused: ECONNREFUSED)'],
	['ENOTFOUND', ' (host name not found: ENOTFOUND)'],
	['EAI_AGAIN', ' (host name lookup failed: EAI_AGAIN)'],
	['ETIMEDOUT', ' (timed out: ETIMEDOUT)'],
	['CERT_HAS_EXPIRED', ' (secure connection failed: CERT_HAS_EXPIRED)'],
	['EPIPE', ' (network error: EPIPE)'],
])('a description ends with %s in words, then the code for an administrator', (code, note) => {
	expect(networkCodeNote(code)).toBe(note);
});
