// @ts-check
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { info, formatDuration } = require('./log');

/** @param {number} pid */
function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (err) {
		return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
	}
}

/** @param {number} ms */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A directory lock: mkdir is atomic, so two runs on one machine (two terminals, a run and
 * CI) cannot both write into the same install folder. A lock whose owner died is taken over.
 * @param {string} lockDir
 * @param {string} what shown while waiting
 * @param {number} [maxWaitMs]
 * @returns {Promise<() => void>} release
 */
async function acquire(lockDir, what, maxWaitMs = 45 * 60 * 1000) {
	fs.mkdirSync(path.dirname(lockDir), { recursive: true });
	const started = Date.now();
	let lastNotice = 0;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			const release = () => fs.rmSync(lockDir, { recursive: true, force: true });
			process.once('exit', release);
			return () => {
				process.removeListener('exit', release);
				release();
			};
		} catch (err) {
			if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
		}
		let owner = NaN;
		try {
			owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
		} catch {
			// The owner may be between mkdir and writing its pid: give it a moment.
		}
		if (Number.isInteger(owner) && !alive(owner)) {
			info(`taking over the stale lock of ${what} (process ${owner} is gone)`);
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		const waited = Date.now() - started;
		if (waited > maxWaitMs) {
			throw new Error(
				`gave up waiting for ${what}: ${lockDir} is held by process ${owner}. ` +
					'If no other install is running, delete that folder and try again.',
			);
		}
		if (Date.now() - lastNotice > 15000) {
			const holder = owner === process.pid ? 'another step of this process' : `process ${owner}`;
			info(`${holder} is installing ${what}; waiting (${formatDuration(waited)} so far)`);
			lastNotice = Date.now();
		}
		await sleep(1000);
	}
}

module.exports = { acquire, alive };
