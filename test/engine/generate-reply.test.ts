import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { runWorkflow } from '../harness/engine';

// What Image → Generate outputs is what the service answered to the submit: its task id, its
// status (or "submitted" when it names none; the spec leaves the field optional) and the request
// id to quote to the provider. The simulator always sends a status, so a stand-in service answers
// here with exactly the reply each test needs.

const KEY = 'stand-in-key-0123456789';
let server: Server | undefined;

afterEach(async () => {
	await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
	server = undefined;
});

/** A service whose submit route answers `reply` (status 200) and counts what it got. */
async function serviceAnswering(reply: object): Promise<{ baseUrl: string; submits: string[] }> {
	const submits: string[] = [];
	server = createServer((request, response) => {
		request.resume();
		request.on('end', () => {
			if (request.method === 'POST' && request.url === '/v1/open/product-images/generations') {
				submits.push(String(request.headers.authorization));
				response.writeHead(200, { 'content-type': 'application/json' });
				response.end(JSON.stringify(reply));
				return;
			}
			response.writeHead(404, { 'content-type': 'application/json' });
			response.end('{"code":404,"message":"not here"}');
		});
	});
	await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return { baseUrl: `http://127.0.0.1:${port}`, submits };
}

async function generate(baseUrl: string) {
	return await runWorkflow({
		credentials: { baseUrl, apiKey: KEY },
		nodes: [{ parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot' } }],
	});
}

test('Generate outputs the request id the service gave its submit', async () => {
	const service = await serviceAnswering({
		code: 200,
		data: { task_id: 'task_abc123', status: 'queued' },
		request_id: 'req_0f1e2d',
	});
	const result = await generate(service.baseUrl);

	expect(result.error).toBeUndefined();
	expect(service.submits).toEqual([`Bearer ${KEY}`]);
	expect(result.items.map((item) => item.json)).toEqual([
		{ task_id: 'task_abc123', status: 'queued', request_id: 'req_0f1e2d' },
	]);
});

test('Generate outputs "submitted" when the submit reply names no status', async () => {
	const service = await serviceAnswering({
		code: 200,
		data: { task_id: 'task_abc123' },
		request_id: 'req_0f1e2d',
	});
	const result = await generate(service.baseUrl);

	expect(result.error).toBeUndefined();
	expect(result.items.map((item) => item.json)).toEqual([
		{ task_id: 'task_abc123', status: 'submitted', request_id: 'req_0f1e2d' },
	]);
});

test('a submit reply without a task id is an error that names the missing field', async () => {
	const service = await serviceAnswering({ code: 200, data: { status: 'queued' } });
	const result = await generate(service.baseUrl);

	expect(result.error?.message).toBe(
		"The service's reply to the generation request lacks fields this node needs [item 0]",
	);
	// No request id in the reply: the description names the field and what to do, and no id.
	expect(result.error?.description).toMatch(
		/^Missing or unexpected: task_id: Required\. The reply holds no task ID\./,
	);
	expect(result.error?.description).not.toContain('Request ID:');
});

test('a submit reply with a numeric task id takes the id as text', async () => {
	const service = await serviceAnswering({ code: 200, data: { task_id: 42 }, request_id: 'req_1' });
	const result = await generate(service.baseUrl);

	expect(result.error).toBeUndefined();
	expect(result.items[0].json.task_id).toBe('42');
});

test('a submit reply of the wrong shape quotes its request id', async () => {
	const service = await serviceAnswering({
		code: 200,
		data: { task_id: { id: 42 } },
		request_id: 'req_0f1e2d',
	});
	const result = await generate(service.baseUrl);

	expect(result.error?.message).toBe(
		"The service's reply to the generation request lacks fields this node needs [item 0]",
	);
	expect(result.error?.description).toMatch(
		/^Missing or unexpected: task_id: .+\. The reply holds no task ID\./,
	);
	expect(result.error?.description).toContain('request ID req_0f1e2d');
	expect(result.error?.context?.requestId).toBe('req_0f1e2d');
});
