import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { getPriority, tmpdir } from 'node:os';
import path from 'node:path';

// scripts/test.js runs its steps side by side: each reports its own time, from its start to its
// end, whatever else runs and whenever the others end. The clock is the test's (only Date is
// faked); each step is a process that ends when the test says.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const testCommand = require('../../scripts/test') as {
	runLogged(
		step: { label: string; command: string; args: string[]; yielding?: boolean },
		env: NodeJS.ProcessEnv,
	): Promise<void>;
	plan(): { label: string; lane: string; yielding?: boolean }[];
};

let folder: string;
let written: string;
beforeEach(() => {
	folder = mkdtempSync(path.join(tmpdir(), 'test-command-'));
	written = '';
	jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
		written += String(chunk);
		return true;
	});
	jest.useFakeTimers({ doNotFake: ['setTimeout', 'setInterval', 'setImmediate', 'nextTick'] });
});
afterEach(() => {
	jest.useRealTimers();
	jest.restoreAllMocks();
	rmSync(folder, { recursive: true, force: true });
});

/** A step whose process ends once `name` exists in the test's folder. */
function stepEndingOn(name: string) {
	const file = path.join(folder, name);
	const script = `const t = setInterval(() => require('fs').existsSync(${JSON.stringify(file)}) && clearInterval(t), 20);`;
	return {
		step: { label: name, command: process.execPath, args: ['-e', script] },
		end: () => writeFileSync(file, ''),
	};
}

test('steps side by side each report their own time, from their start to their end', async () => {
	const long = stepEndingOn('the long step');
	const short = stepEndingOn('the short step');
	jest.setSystemTime(100_000);
	const longRun = testCommand.runLogged(long.step, process.env);
	jest.setSystemTime(110_000);
	const shortRun = testCommand.runLogged(short.step, process.env);
	jest.setSystemTime(114_000);
	short.end();
	await shortRun;
	expect(written).toMatch(/=== the short step passed in 4\.0 s \(processor time \d+\.\d s\)\n/);
	jest.setSystemTime(160_000);
	long.end();
	await longRun;
	expect(written).toMatch(/=== the long step passed in 60\.0 s \(processor time \d+\.\d s\)\n/);
	expect(written.indexOf('=== the short step passed')).toBeLessThan(
		written.indexOf('=== the long step passed'),
	);
});

const onPosix = process.platform === 'win32' ? test.skip : test;

/** Node code that keeps the processor busy until its own process has used `ms` of it. */
const burn = (ms: number) =>
	`const t = process.cpuUsage(); while ((process.cpuUsage(t).user + process.cpuUsage(t).system) / 1000 < ${ms});`;

onPosix(
	"a step's processor time counts its processes' use of the processor, the ones they started included",
	async () => {
		// The step burns 0.4 s itself and starts a process that burns 0.8 s: a count of the step's own
		// process alone would say about 0.4 s.
		const inner = JSON.stringify(burn(800));
		const script = `${burn(400)} require('child_process').execFileSync(process.execPath, ['-e', ${inner}]);`;
		await testCommand.runLogged(
			{ label: 'busy', command: process.execPath, args: ['-e', script] },
			process.env,
		);
		const match = /=== busy passed in [\d.]+ s \(processor time (\d+\.\d) s\)\n/.exec(written);
		expect(Number(match?.[1])).toBeGreaterThanOrEqual(1.2);
	},
);

/** A step that prints the priority (nice value) it runs at. */
const printsPriority = (label: string, yielding: boolean) => ({
	label,
	command: process.execPath,
	args: ['-e', "console.log('priority', require('os').getPriority())"],
	yielding,
});

onPosix(
	'a yielding step runs below the rest of the test command, a plain one at its level',
	async () => {
		const own = getPriority();
		await testCommand.runLogged(printsPriority('plain', false), process.env);
		await testCommand.runLogged(printsPriority('yielding', true), process.env);
		expect(written).toContain(`=== plain, its output\npriority ${own}\n`);
		expect(written).toContain(`=== yielding, its output\npriority ${Math.min(own + 10, 19)}\n`);
	},
);

test('the checks yield the processor; jest and the real-n8n suites do not', () => {
	const steps = testCommand.plan();
	expect(steps.filter((s) => s.lane === 'checks').every((s) => s.yielding)).toBe(true);
	expect(steps.filter((s) => s.lane !== 'checks' && s.yielding)).toEqual([]);
});
