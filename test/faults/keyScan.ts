import type { Simulator } from '../simulator';
import type { RunResult } from '../harness/engine';
import { hintsOf } from './faultCase';

// Where the API key must never be: everything a run shows a person or a log.

function safeStringify(value: unknown): string {
	const seen = new WeakSet<object>();
	return JSON.stringify(value, (key, entry: unknown) => {
		if (typeof entry === 'bigint') return entry.toString();
		// Image bytes kept in memory as base64: nothing a person reads, and megabytes of it.
		if (key === 'data' && typeof entry === 'string' && entry.length > 4_096)
			return `[${entry.length} base64 characters]`;
		if (entry instanceof Error) {
			const own: Record<string, unknown> = {
				name: entry.name,
				message: entry.message,
				stack: entry.stack,
			};
			for (const key of Object.getOwnPropertyNames(entry))
				own[key] = (entry as unknown as Record<string, unknown>)[key];
			entry = own;
		}
		if (typeof entry === 'object' && entry !== null) {
			if (seen.has(entry)) return '[circular]';
			seen.add(entry);
		}
		return entry;
	});
}

/**
 * Every place a run can show something to a person or a log: output items, the error with its
 * description and context, execution hints, log lines with their metadata, and the whole stored run.
 */
export function surfacesOf(result: RunResult): Record<string, string> {
	const error = result.error;
	return {
		items: safeStringify(result.items),
		outputs: safeStringify(result.outputs),
		errorMessage: String(error?.message ?? ''),
		errorDescription: String(error?.description ?? ''),
		errorContext: safeStringify(error?.context ?? {}),
		error: safeStringify(error ?? {}),
		hints: safeStringify(hintsOf(result)),
		logs: safeStringify(result.logs),
		run: safeStringify(result.run),
	};
}

const FRAGMENT = 12;

/** The key, every 12-character piece of it (a partly masked key still leaks) and its base64 form. */
function keyForms(key: string): string[] {
	const pieces = new Set<string>();
	for (let start = 0; start + FRAGMENT <= key.length; start++)
		pieces.add(key.slice(start, start + FRAGMENT));
	return [key, ...pieces, Buffer.from(key).toString('base64')];
}

export function keyLeaks(result: RunResult, key: string): string[] {
	const leaks = new Set<string>();
	const forms = keyForms(key);
	for (const [surface, text] of Object.entries(surfacesOf(result))) {
		if (text.includes(key)) leaks.add(`${surface} contains the key`);
		else if (forms.some((form) => text.includes(form)))
			leaks.add(`${surface} contains part of the key`);
	}
	return [...leaks];
}

/** Which origins saw the key: only the credential's own may. */
export function authorizationOrigins(sim: Simulator): string[] {
	return [
		...new Set(
			sim.stats.requests
				.filter((entry) => entry.authorization !== undefined)
				.map((entry) => entry.origin),
		),
	];
}
