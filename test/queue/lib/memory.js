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

/** Resident memory of a process in MiB (Linux /proc), or undefined when it is gone. @param {number} pid */
function rssMiB(pid) {
	try {
		const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) / 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** Every live process' parent, read from /proc/<pid>/stat. */
function parents() {
	/** @type {Map<number, number>} */
	const map = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			// The command name may hold spaces and parentheses: the fields start after the last ')'.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			map.set(Number(entry), Number(fields[1]));
		} catch {
			/* gone meanwhile */
		}
	}
	return map;
}

/**
 * Samples, every `everyMs` until `stop`, the resident memory of each process `list()` names now
 * (a worker started later is picked up) and of the process with everything it started (n8n's
 * task runner): the peak of each, per name, in MiB.
 * @param {() => {name: string, pid?: number}[]} list
 * @param {number} [everyMs]
 */
function sampleMemoryTrees(list, everyMs = 1000) {
	/** @type {Record<string, {own: number, tree: number}>} */
	const peak = {};
	const sample = () => {
		const processes = list().filter((p) => p.pid !== undefined);
		if (processes.length === 0) return;
		const parentOf = parents();
		for (const p of processes) {
			const own = rssMiB(/** @type {number} */ (p.pid));
			if (own === undefined) continue;
			let tree = own;
			for (const [pid] of parentOf) {
				for (let up = parentOf.get(pid); up !== undefined && up > 1; up = parentOf.get(up)) {
					if (up === p.pid) {
						tree += rssMiB(pid) ?? 0;
						break;
					}
				}
			}
			const seen = peak[p.name] ?? { own: 0, tree: 0 };
			peak[p.name] = { own: Math.max(seen.own, own), tree: Math.max(seen.tree, tree) };
		}
	};
	sample();
	const timer = setInterval(sample, everyMs);
	return {
		/** The peaks so far. */
		peak: () => peak,
		stop: () => {
			clearInterval(timer);
			sample();
			return peak;
		},
	};
}

module.exports = { sampleMemory, sampleMemoryTrees };
