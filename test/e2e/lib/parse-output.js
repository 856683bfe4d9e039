// @ts-check
'use strict';

/**
 * n8n prints its log lines and then the run as pretty-printed JSON (on a failed run the
 * same JSON comes inside the log, followed by more log lines). The JSON starts on the first
 * line that starts with `{` and, being indented, closes on a line that is exactly `}`.
 * @param {string} stdout
 * @returns {any} the parsed value, or undefined when no JSON is found
 */
function parseRunOutput(stdout) {
	const lines = stdout.split('\n');
	const start = lines.findIndex((l) => l.startsWith('{'));
	if (start < 0) return undefined;
	if (lines[start].trimEnd().endsWith('}')) {
		try {
			return JSON.parse(lines[start]);
		} catch {
			/* not one-line JSON: look for the closing brace below */
		}
	}
	for (let end = start + 1; end < lines.length; end++) {
		if (lines[end].trimEnd() !== '}') continue;
		try {
			return JSON.parse(lines.slice(start, end + 1).join('\n'));
		} catch {
			/* a nested `}` at column 0 is impossible in indented JSON, but keep looking */
		}
	}
	return undefined;
}

/**
 * Both shapes seen from `n8n execute --rawOutput`: the whole run (`{data: {resultData}}`)
 * or the run data of the nodes alone.
 * @param {any} parsed
 * @returns {{runData: Record<string, any[]>, error?: any, lastNodeExecuted?: string, status?: string}}
 */
function normaliseRun(parsed) {
	if (!parsed || typeof parsed !== 'object') return { runData: {} };
	const resultData = parsed.data?.resultData ?? parsed.resultData;
	if (resultData) {
		return {
			runData: resultData.runData ?? {},
			error: resultData.error,
			lastNodeExecuted: resultData.lastNodeExecuted,
			status: parsed.status,
		};
	}
	return { runData: parsed };
}

/**
 * What `n8n execute` printed, and whether the run passed by n8n's own account: an exit 0, or a
 * crash on its way out (SIGSEGV, seen once under load) after it had printed the whole run, its
 * status included. The run is then what it printed, and the crash is said beside it.
 * @param {{stdout: string, code: number | null, signal: NodeJS.Signals | null}} result
 */
function executeVerdict({ stdout, code, signal }) {
	const parsed = parseRunOutput(stdout);
	const outcome = normaliseRun(parsed);
	const crashedAfterRun = signal === 'SIGSEGV' && outcome.status !== undefined;
	const ok = (code === 0 || crashedAfterRun) && !outcome.error && parsed !== undefined;
	return { ok, crashedAfterRun, parsed, ...outcome };
}

module.exports = { executeVerdict };
