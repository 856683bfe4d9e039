import { ClientRequest } from 'node:http';

/**
 * The node's own timeouts for task queries (30 s) and downloads (120 s) are not options, and a
 * test cannot wait that long. HTTP clients arm them with `ClientRequest#setTimeout`,
 * so this maps those exact values to short ones while a test runs. Returns the undo.
 */
export function shrinkFixedTimeouts(map: Record<number, number>): () => void {
	const prototype = ClientRequest.prototype;
	const original = prototype.setTimeout;
	prototype.setTimeout = function (this: ClientRequest, ms: number, callback?: () => void) {
		return original.call(this, map[ms] ?? ms, callback);
	} as typeof original;
	return () => {
		prototype.setTimeout = original;
	};
}
