// @ts-check
'use strict';

/** @param {number} ms */
function formatDuration(ms) {
	const s = Math.round(ms / 1000);
	if (s < 60) return `${s}s`;
	return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** @param {number} bytes */
function formatBytes(bytes) {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
	if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
	return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/**
 * Console output goes to stderr so that stdout stays free for the closing summary line and
 * for anything a caller wants to parse.
 * @param {string} message
 */
function info(message) {
	process.stderr.write(`[e2e] ${message}\n`);
}

/**
 * @param {string} title
 * @returns {{ done: (extra?: string) => number, elapsed: () => number }}
 */
function step(title) {
	const started = Date.now();
	info(`${title} ...`);
	return {
		elapsed: () => Date.now() - started,
		done: (extra) => {
			const ms = Date.now() - started;
			info(`${title}: done in ${formatDuration(ms)}${extra ? ` (${extra})` : ''}`);
			return ms;
		},
	};
}

module.exports = { formatDuration, formatBytes, info, step };
