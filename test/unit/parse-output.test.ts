// test/e2e/lib/parse-output.js judges what `n8n execute --rawOutput` printed and how n8n ended.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { executeVerdict } = require('../e2e/lib/parse-output') as {
	executeVerdict(result: { stdout: string; code: number | null; signal: string | null }): {
		ok: boolean;
		crashedAfterRun: boolean;
		status?: string;
	};
};

/** The whole run as n8n prints it, after its log lines. */
const printed = (run: object) => `Loading nodes\n${JSON.stringify(run, null, 2)}\n`;
const waiting = printed({ data: { resultData: { runData: { Form: [{}] } } }, status: 'waiting' });
const failed = printed({
	data: { resultData: { runData: {}, error: { message: 'The service refused' } } },
	status: 'error',
});

test("n8n's own exit 0 after the whole run passes", () => {
	expect(executeVerdict({ stdout: waiting, code: 0, signal: null })).toMatchObject({
		ok: true,
		crashedAfterRun: false,
		status: 'waiting',
	});
});

test('a SIGSEGV after the whole run is judged on what n8n printed, and said', () => {
	expect(executeVerdict({ stdout: waiting, code: null, signal: 'SIGSEGV' })).toMatchObject({
		ok: true,
		crashedAfterRun: true,
	});
	expect(executeVerdict({ stdout: failed, code: null, signal: 'SIGSEGV' }).ok).toBe(false);
});

test('a crash before the run was printed, another signal or an exit code fails', () => {
	const partial = waiting.slice(0, waiting.length / 2);
	expect(executeVerdict({ stdout: partial, code: null, signal: 'SIGSEGV' }).ok).toBe(false);
	expect(executeVerdict({ stdout: waiting, code: null, signal: 'SIGKILL' }).ok).toBe(false);
	expect(executeVerdict({ stdout: waiting, code: 1, signal: null }).ok).toBe(false);
});
