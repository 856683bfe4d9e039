import http from 'node:http';
import type { AddressInfo } from 'node:net';

// `npm run dev` announces the editor once its page answers, not when /healthz does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { waitForEditorPage } = require('../e2e/dev.js') as {
	waitForEditorPage(
		url: string,
		o?: { timeoutMs?: number; sleep?: () => Promise<void> },
	): Promise<void>;
};

let pageReady = false;
const server = http.createServer((_, res) => {
	if (pageReady)
		res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>n8n</title>');
	else res.writeHead(404, { 'content-type': 'text/html' }).end('Cannot GET /');
});
let url = '';
beforeAll(async () => {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

test('it waits while the first visit answers "Cannot GET /" and resolves once the page is served', async () => {
	pageReady = false;
	let waits = 0;
	// The test's clock: the third wait is when n8n starts serving its page.
	const sleep = async () => {
		waits += 1;
		if (waits === 3) pageReady = true;
	};
	await waitForEditorPage(url, { sleep });
	expect(waits).toBe(3);
});

test('it gives up with the address when the page never comes', async () => {
	pageReady = false;
	await expect(waitForEditorPage(url, { timeoutMs: 3000, sleep: async () => {} })).rejects.toThrow(
		`the editor page at ${url} did not open within 3 s`,
	);
});
