import { readFileSync } from 'node:fs';
import path from 'node:path';

// scripts/measure-test-time.js reads the test command's output after a cold run of half an hour:
// its reading of that output is checked here, on a saved sample of it.

interface Step {
	label: string;
	passed: boolean;
	seconds: number;
	processor?: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const measure = require('../../scripts/measure-test-time') as {
	parseSteps(output: string): Step[];
	renderSection(figures: Record<string, unknown>): string;
	withSection(page: string, section: string): string;
	duration(seconds: number): string;
	START: string;
	END: string;
	BUSY: { start: string; end: string };
};

const root = path.resolve(__dirname, '..', '..');
const sample = readFileSync(path.join(__dirname, 'samples', 'npm-test-output.txt'), 'utf8');

/**
 * The labels scripts/test.js runs its steps under, the real-n8n installs and the waits for them
 * included.
 */
function labelsOfTestCommand(): string[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const testCommand = require('../../scripts/test') as {
		plan(): { label: string }[];
		INSTALLS: string;
	};
	return [testCommand.INSTALLS, ...testCommand.plan().map((step) => step.label)];
}
const WAIT_FOR_NEWEST =
	'real n8n 2.41.0: its install (Node and n8n, in the background since the start), the wait for it';

test('every step of the test command is read from its output, with its time, and nothing else is', () => {
	const steps = measure.parseSteps(sample);
	// Its lanes run side by side, so the steps start in an order the machine decides.
	expect(steps.map((step) => step.label).sort()).toEqual(labelsOfTestCommand().sort());
	expect(steps.every((step) => step.passed)).toBe(true);
	// The installs start first, in the background, and end last: placed where they started.
	expect(steps[0]).toEqual({
		label:
			'real n8n installs (Node and n8n of every pin, the Debian packages the suites use, in the background from the start)',
		passed: true,
		seconds: 304.6,
		processor: 405.2,
	});
	expect(steps[1]).toEqual({ label: 'build', passed: true, seconds: 14.2, processor: 16.9 });
	expect(steps.find((step) => step.label === 'engine, fault and unit tests')).toEqual({
		label: 'engine, fault and unit tests',
		passed: true,
		seconds: 412.5,
		processor: 171.3,
	});
	expect(steps.find((step) => step.label.startsWith("n8n's registry scanner"))?.seconds).toBe(12);
	expect(steps.find((step) => step.label === WAIT_FOR_NEWEST)?.seconds).toBe(64.8);
});

test('a step that runs beside the next ones is placed where it started, not where it ended', () => {
	const labels = measure.parseSteps(sample).map((step) => step.label);
	const queue = 'real n8n 2.41.0: queue mode (Postgres, Redis, two workers)';
	const headless = 'real n8n 2.41.0: 13 workflow runs, headless';
	// Its lane started it after the wait for its install and before the headless runs…
	expect(labels.indexOf(queue)).toBeGreaterThan(labels.indexOf(WAIT_FOR_NEWEST));
	expect(labels.indexOf(queue)).toBeLessThan(labels.indexOf(headless));
	// …and it ended after them, and after the other lanes' last step.
	expect(sample.indexOf(`=== ${queue} passed`)).toBeGreaterThan(
		sample.indexOf(`=== ${headless} passed`),
	);
	expect(sample.indexOf(`=== ${queue} passed`)).toBeGreaterThan(
		sample.indexOf('=== real n8n 1.85.4: 6 workflow runs, headless passed'),
	);
});

test('a failed step is read as failed', () => {
	const steps = measure.parseSteps(
		'=== lint passed in 3.0 s\n\n=== typecheck failed after 7.5 s\n',
	);
	expect(steps).toEqual([
		{ label: 'lint', passed: true, seconds: 3 },
		{ label: 'typecheck', passed: false, seconds: 7.5 },
	]);
});

test('the section names the machine, every step, the total and the largest shares', () => {
	const steps = measure.parseSteps(sample);
	const section = measure.renderSection({
		date: '2026-11-25',
		cores: 2,
		cpu: 'Test CPU',
		node: 'v20.20.2',
		commit: 'abc1234',
		npmCiSeconds: 95,
		steps,
		totalSeconds: 2000,
		load: { mean: 2.46, max: 5.04 },
	});
	expect(section.startsWith(measure.START)).toBe(true);
	expect(section.endsWith(measure.END)).toBe(true);
	expect(section).toContain('Measured 2026-11-25 on 2 cores (Test CPU), Node v20.20.2');
	expect(section).toContain('| `npm ci` (empty npm cache) | 1 min 35 s |');
	expect(section).toContain(
		'| real n8n 2.41.0: queue mode (Postgres, Redis, two workers) | 2 min 11 s |',
	);
	expect(section).toContain('| **Total, `npm ci && npm test`** | **33 min 20 s** (over 10 min) |');
	// Without processor times, by wall time.
	expect(section).toContain('The largest shares: engine, fault and unit tests 26 %');
	expect(section).toContain(
		"The machine's load (its 1-minute load average, read every 5 s) was 2.5 on average and 5.0 at most: with 2 cores, above 2 means other work wanted the processor too.",
	);
	expect(section).toContain('| links in README.md and docs/\\*.md lead somewhere | < 1 s |');
	for (const step of steps) expect(section).toContain(`| ${step.label.replace('*', '\\*')} |`);
});

test('the figures go between the markers of the development page, and only there', () => {
	const page = readFileSync(path.join(root, 'docs', 'development.md'), 'utf8');
	const section = `${measure.START}\nnew figures\n${measure.END}`;
	const written = measure.withSection(page, section);
	expect(written.slice(0, page.indexOf(measure.START))).toBe(
		page.slice(0, page.indexOf(measure.START)),
	);
	expect(written.endsWith(page.slice(page.indexOf(measure.END) + measure.END.length))).toBe(true);
	expect(written).toContain(section);
	expect(() => measure.withSection('no markers', section)).toThrow(/needs one/);
});

test('each step shows the load during it, and a busy run names its busy loops and its own markers', () => {
	const steps = measure
		.parseSteps(sample)
		.map((step) => (step.label === 'build' ? { ...step, load: { mean: 4.04, max: 6.5 } } : step));
	const figures = {
		date: '2026-11-28',
		cores: 2,
		cpu: 'Test CPU',
		node: 'v20.20.2',
		commit: 'abc1234',
		npmCiSeconds: 60,
		npmCiProcessor: 90,
		npmCiLoad: { mean: 2, max: 2.2 },
		steps,
		totalSeconds: 540,
		totalProcessor: 1000,
		load: { mean: 3, max: 6.5 },
	};
	const quiet = measure.renderSection(figures);
	expect(quiet).toContain('| Step | Time | Processor time | Load during it |');
	expect(quiet).toContain(
		'| `npm ci` (empty npm cache) | 1 min | 1 min 30 s | 2.0 (2.2 at most) |',
	);
	expect(quiet).toContain('| build | 14 s | 17 s | 4.0 (6.5 at most) |');
	// A step whose line gave no processor time leaves its cell empty.
	expect(quiet).toContain("| n8n's registry scanner, offline (source and tarball) | 12 s |  |");
	expect(quiet).toContain('| **9 min** (under 10 min) | 16 min 40 s | 3.0 (6.5 at most) |');
	expect(quiet).toContain(
		'The run used 16 min 40 s of it in all: on 2 cores, the same work cannot end in less than 8 min 20 s.',
	);
	expect(quiet).toContain(
		'The largest shares of the processor time: real n8n installs (Node and n8n of every pin, the Debian packages the suites use, in the background from the start) 41 %, engine, fault and unit tests 17 %, `npm ci` (empty npm cache) 9 %.',
	);
	expect(quiet.includes(measure.BUSY.start)).toBe(false);
	const busy = measure.renderSection({ ...figures, busy: 2 });
	expect(busy.startsWith(measure.BUSY.start)).toBe(true);
	expect(busy.endsWith(measure.BUSY.end)).toBe(true);
	expect(busy).toContain('while 2 busy loops');
	expect(busy).toContain('`npm run test:time -- --busy 2`');
	const page = readFileSync(path.join(root, 'docs', 'development.md'), 'utf8');
	const written = measure.withSection(page, busy);
	expect(written).toContain(busy);
	// The quiet table stays as it was.
	expect(written).toContain(
		page.slice(page.indexOf(measure.START), page.indexOf(measure.END) + measure.END.length),
	);
});
