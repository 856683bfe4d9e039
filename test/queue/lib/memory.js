// @ts-check
'use strict';

const fs = require('node:fs');

/**
 * Samples each process' resident memory (Linux /proc) until `stop`, which returns the peak
 * per name in MiB. The worker's own Node process is measured, not its task runner.
 * @param {{name: string, pid?: number}[]} processes
 */
function sampleMemory(processes) {
	/** @type {Record<string, number>} */
	const peak = {};
	const sample = () => {
		for (const p of processes) {
			try {
				const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p.pid}/status`, 'utf8'));
				if (match) peak[p.name] = Math.max(peak[p.name] ?? 0, Number(match[1]) / 1024);
			} catch {
				/* the process is gone */
			}
		}
	};
	sample();
	const timer = setInterval(sample, 250);
	return {
		stop: () => {
			clearInterval(timer);
			sample();
			return peak;
		},
	};
}

module.exports = { sampleMemory };
