import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { useTemporaryE2eCache } from '../harness/e2eCache';

// test/e2e/lib/ports.js hands each n8n of a run its ports. n8n binds a port many seconds after the
// OS released it, so a port handed to one suite must not be handed to another before that suite
// ends: one suite's requests once went to another suite's n8n.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../e2e/lib/ports') as {
	freePort(pick?: () => Promise<number>): Promise<number>;
};

/** The OS's candidates, as given. */
const candidates =
	(...ports: number[]) =>
	async () =>
		ports.shift()!;

const cache = useTemporaryE2eCache();

const reservation = (port: number) => path.join(cache(), 'ports', String(port));

/** A port another process of the run holds: its file names that live process. */
function heldBy(pid: number, port: number) {
	mkdirSync(path.join(cache(), 'ports'), { recursive: true });
	writeFileSync(reservation(port), String(pid));
}

test('a port another live process holds is not handed out', async () => {
	const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
	try {
		heldBy(other.pid!, 45001);
		expect(await freePort(candidates(45001, 45003))).toBe(45003);
		expect(readFileSync(reservation(45001), 'utf8')).toBe(String(other.pid));
	} finally {
		other.kill();
	}
});

test('a port whose holder is gone is skipped once, its reservation removed', async () => {
	const gone = spawnSync(process.execPath, ['-e', '']).pid;
	heldBy(gone, 45002);
	expect(await freePort(candidates(45002, 45002))).toBe(45002);
	expect(readFileSync(reservation(45002), 'utf8')).toBe(String(process.pid));
});

test('each port handed out is held until its process ends', async () => {
	const handedOut = await Promise.all([freePort(), freePort(), freePort()]);
	expect(new Set(handedOut).size).toBe(3);
	for (const port of handedOut)
		expect(readFileSync(reservation(port), 'utf8')).toBe(String(process.pid));
	const child = spawnSync(
		process.execPath,
		['-e', "require('./test/e2e/lib/ports').freePort().then((p) => console.log(p))"],
		{ env: { ...process.env, PRODUCT_IMAGE_E2E_CACHE: cache() }, encoding: 'utf8' },
	);
	const port = Number(child.stdout.trim());
	expect(port).toBeGreaterThan(0);
	expect(handedOut).not.toContain(port);
	expect(existsSync(reservation(port))).toBe(false);
});
