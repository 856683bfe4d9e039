import type { ClientRequest, IncomingMessage } from 'node:http';
import { subscribe } from 'node:diagnostics_channel';

/**
 * Every HTTP request this process starts and every reply it gets, in order, seen where Node
 * creates the request and reads the reply's status line. A request the node starts after a cancel
 * or during a pause shows here at once; the simulator would see it only when its own turn on the
 * event loop comes, which on a busy machine can be after a request started before the cancel.
 */
export interface ClientEvent {
	kind: 'start' | 'reply';
	method: string;
	path: string;
	/** The reply's status (replies only). */
	status?: number;
	at: number;
}

const events: ClientEvent[] = [];

subscribe('http.client.request.start', (message) => {
	const { request } = message as { request: ClientRequest };
	events.push({ kind: 'start', method: request.method, path: request.path, at: Date.now() });
});

subscribe('http.client.response.finish', (message) => {
	const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
	events.push({
		kind: 'reply',
		method: request.method,
		path: request.path,
		status: response.statusCode,
		at: Date.now(),
	});
});

/** A mark to compare against later: the events so far. */
export function clientEventMark(): number {
	return events.length;
}

/** Events after `mark` (all when absent). */
export function clientEventsSince(mark = 0): ClientEvent[] {
	return events.slice(mark);
}

/** Requests started after `mark`, as "METHOD path". */
export function clientRequestsSince(mark: number): string[] {
	return clientEventsSince(mark)
		.filter((event) => event.kind === 'start')
		.map(({ method, path }) => `${method} ${path}`);
}
