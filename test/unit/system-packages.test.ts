import { useTemporaryE2eCache } from '../harness/e2eCache';

// test/e2e/lib/system-packages.js installs what the real-n8n suites need from apt. On a fresh
// machine the suites of one test command start together, and a second `apt-get update` beside the
// first fails at once: the installs must take turns, and one that waited must not install again.

type Install = (what: string, packages: string[]) => Promise<void>;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ensurePackages } = require('../e2e/lib/system-packages') as {
	ensurePackages(
		what: string,
		packages: string[],
		isPresent: () => boolean,
		install: Install,
	): Promise<void>;
};

useTemporaryE2eCache();

/** An apt that takes a while and records who ran beside whom. */
function fakeApt() {
	const installed = new Set<string>();
	const calls: string[] = [];
	let running = 0;
	let mostAtOnce = 0;
	const install: Install = async (what) => {
		calls.push(what);
		mostAtOnce = Math.max(mostAtOnce, ++running);
		await new Promise((resolve) => setTimeout(resolve, 300));
		installed.add(what);
		running -= 1;
	};
	return { installed, calls, install, mostAtOnce: () => mostAtOnce };
}

test('installs started together take turns', async () => {
	const apt = fakeApt();
	const ensure = (what: string) =>
		ensurePackages(what, [what.toLowerCase()], () => apt.installed.has(what), apt.install);
	await Promise.all([ensure('Chromium'), ensure('Redis'), ensure('GraphicsMagick')]);
	expect(apt.mostAtOnce()).toBe(1);
	expect([...apt.installed].sort()).toEqual(['Chromium', 'GraphicsMagick', 'Redis']);
});

test('a wait says who holds the turn: another step of the same process is not named as a process', async () => {
	const apt = fakeApt();
	const said = jest.spyOn(process.stderr, 'write').mockReturnValue(true);
	try {
		const ensure = (what: string) =>
			ensurePackages(what, [what.toLowerCase()], () => apt.installed.has(what), apt.install);
		await Promise.all([ensure('Chromium'), ensure('Redis')]);
		const lines = said.mock.calls.map(([text]) => String(text));
		expect(lines).toContainEqual(
			expect.stringContaining('another step of this process is installing'),
		);
		expect(lines.join('')).not.toContain(`process ${process.pid} is installing`);
	} finally {
		said.mockRestore();
	}
});

test('a suite that waited for the same program does not install it again', async () => {
	const apt = fakeApt();
	const ensure = () =>
		ensurePackages('Chromium', ['chromium'], () => apt.installed.has('Chromium'), apt.install);
	await Promise.all([ensure(), ensure()]);
	expect(apt.calls).toEqual(['Chromium']);
});

test('a failed install leaves the turn to the next one', async () => {
	const apt = fakeApt();
	const failing: Install = () => Promise.reject(new Error('apt-get install failed'));
	await expect(ensurePackages('Redis', ['redis-server'], () => false, failing)).rejects.toThrow(
		'apt-get install failed',
	);
	await ensurePackages('Redis', ['redis-server'], () => apt.installed.has('Redis'), apt.install);
	expect(apt.calls).toEqual(['Redis']);
});
