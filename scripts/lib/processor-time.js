// What a command took from the processor, as the shell that ran it counts it. Wall time says how
// long a step took beside the others; processor time says what it took from them, and their sum,
// divided by the cores, is the least time the same work can take on the machine.
'use strict';

const fs = require('node:fs');

/**
 * The command run by a shell that, when it ends, writes into `timesFile` what `times` says: the
 * user and system time of everything the command started and waited for (a daemon that left its
 * parent is not counted). Where there is no bash, the command alone, and nothing is written.
 * @param {string} command @param {string[]} args @param {string} timesFile
 * @returns {string[]} the file to run and its arguments
 */
function withProcessorTime(command, args, timesFile) {
	if (process.platform === 'win32') return [command, ...args];
	const script = 'f=$1; shift; "$@"; code=$?; times > "$f"; exit $code';
	return ['bash', '-c', script, 'bash', timesFile, command, ...args];
}

/**
 * The seconds of processor time in what `times` wrote (its second line, the children's user and
 * system time: `0m12.345s 0m1.200s`), or undefined when it wrote nothing.
 * @param {string} timesFile
 */
function processorSeconds(timesFile) {
	let text;
	try {
		text = fs.readFileSync(timesFile, 'utf8');
	} catch {
		return undefined;
	}
	const children = text.trim().split(/\r?\n/)[1] ?? '';
	const parts = [...children.matchAll(/(\d+)m(\d+(?:\.\d+)?)s/g)];
	if (parts.length !== 2) return undefined;
	return parts.reduce(
		(sum, [, minutes, seconds]) => sum + 60 * Number(minutes) + Number(seconds),
		0,
	);
}

module.exports = { withProcessorTime, processorSeconds };
