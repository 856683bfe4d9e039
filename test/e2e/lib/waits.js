// @ts-check
'use strict';

// How long the real-n8n suites wait for what they wait for (n8n's own signal, a request seen, a
// page state). Each wait ends as soon as its thing happens, so the limit costs nothing on a quiet
// machine; it is sized for a loaded one: on 2 cores at a load average of 8 to 12, the editor's
// credential form did not show its test's verdict within the 30 s it was then given. A wait that
// reaches it fails naming what it waited for.

/** A page state, an answer from n8n, an execution's end: any one wait. */
const LOADED_MACHINE_MS = 180_000;

/** A whole workflow run (many requests, each slower on a loaded machine). */
const LOADED_RUN_MS = 2 * LOADED_MACHINE_MS;

/**
 * What a failed wait waited for, in one line: Playwright's message and the "waiting for" line of
 * its call log (its first line alone says only that a timeout passed).
 * @param {unknown} err
 */
function whatFailed(err) {
	const text = err instanceof Error ? err.message : String(err);
	const [first, ...rest] = text.split('\n');
	const waited = rest.map((l) => l.trim()).find((l) => /^- waiting for /.test(l));
	return waited ? `${first} (${waited.slice(2)})` : first;
}

module.exports = { LOADED_MACHINE_MS, LOADED_RUN_MS, whatFailed };
