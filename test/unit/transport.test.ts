import { forEachLimited } from '../../nodes/ProductImage/helpers/concurrency';
import { sleepUnlessCancelled } from '../../nodes/ProductImage/helpers/sleep';
import {
	findEnvelopeCode,
	findNetworkCode,
	findRequestId,
	findServiceMessage,
	parseRetryAfter,
} from '../../nodes/ProductImage/transport/failure';
import { redactSecrets } from '../../nodes/ProductImage/transport/redact';
import { backoffDelay, isRetryable } from '../../nodes/ProductImage/transport/retryPolicy';

describe('findServiceMessage finds the message in any error shape', () => {
	test.each([
		[{ code: 400, message: 'bad size', request_id: 'r' }, 'bad size'],
		[{ error: { code: 'invalid', message: 'bad size' } }, 'bad size'],
		[{ detail: 'bad size' }, 'bad size'],
		[{ detail: [{ msg: 'size invalid' }, { msg: 'prompt missing' }] }, 'size invalid; prompt missing'],
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

test('network codes are found through wrapped errors', () => {
	const system = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
	const axios = Object.assign(new Error('wrapped'), { code: 'ERR_BAD_REQUEST', cause: system });
	expect(findNetworkCode({ message: 'outer', cause: axios })).toBe('ECONNREFUSED');
	expect(findNetworkCode(new Error('socket hang up'))).toBe('ECONNRESET');
	expect(findNetworkCode(new Error('timeout of 100ms exceeded'))).toBe('ETIMEDOUT');
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
	const http = (status: number, processed = false) => ({ kind: 'http' as const, status, processed });
	const network = (networkCode: string) => ({ kind: 'network' as const, networkCode });
	const timeout = { kind: 'timeout' as const, networkCode: 'ETIMEDOUT' };

	test('reads retry on 429, 5xx, broken connections and timeouts, not on 4xx', () => {
		for (const failure of [http(429), http(500), http(503), network('ECONNRESET'), network('ECONNREFUSED'), timeout]) {
			expect(isRetryable('read', failure)).toBe(true);
		}
		for (const failure of [http(400), http(401), http(404), http(410), { kind: 'malformed' as const, status: 200 }]) {
			expect(isRetryable('read', failure)).toBe(false);
		}
	});

	test('submits retry only where the service certainly did not take the job', () => {
		expect(isRetryable('submit', http(429))).toBe(true);
		expect(isRetryable('submit', network('ECONNREFUSED'))).toBe(true);
		for (const failure of [http(500), http(502), http(503), network('ECONNRESET'), timeout]) {
			expect(isRetryable('submit', failure)).toBe(false);
		}
	});

	test('synchronous calls retry on 429 and on 5xx that did not come from the service', () => {
		expect(isRetryable('sync', http(429))).toBe(true);
		expect(isRetryable('sync', http(502, false))).toBe(true);
		expect(isRetryable('sync', http(500, true))).toBe(false);
		expect(isRetryable('sync', timeout)).toBe(false);
	});

	test('backoff doubles per attempt with jitter, capped', () => {
		expect(backoffDelay(1, () => 0)).toBe(500);
		expect(backoffDelay(1, () => 1)).toBe(1000);
		expect(backoffDelay(3, () => 0)).toBe(2000);
		expect(backoffDelay(20, () => 1)).toBe(30000);
	});
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
	const controller = new AbortController();
	const started = Date.now();
	setTimeout(() => controller.abort(), 50);
	await expect(sleepUnlessCancelled(10_000, controller.signal)).resolves.toBe(false);
	expect(Date.now() - started).toBeLessThan(1000);
	await expect(sleepUnlessCancelled(10)).resolves.toBe(true);
});
