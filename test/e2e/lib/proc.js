// @ts-check
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const { formatDuration, info } = require('./log');
const { redact } = require('./redact');

/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();

// Children run in their own process group so that n8n's task runner and npm's build
// scripts go down with them; the exit hook makes sure no group outlives this process.
/** @param {import('node:child_process').ChildProcess} child @param {NodeJS.Signals} signal */
function killGroup(child, signal) {
	if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

process.on('exit', () => {
	for (const child of live) killGroup(child, 'SIGKILL');
});

/**
 * Without a handler, Ctrl-C ends Node without its 'exit' event, and the children, being in
 * groups of their own, would not see the signal either: they would linger.
 */
function stopChildrenOnSignal() {
	/** @type {[NodeJS.Signals, number][]} */
	const signals = [
		['SIGINT', 130],
		['SIGTERM', 143],
		['SIGHUP', 129],
	];
	for (const [signal, code] of signals) {
		process.once(signal, () => {
			process.stderr.write(`\n[e2e] ${signal}: stopping child processes\n`);
			for (const child of live) killGroup(child, 'SIGTERM');
			process.exit(code);
		});
	}
}

/**
 * @typedef {object} RunOptions
 * @property {string} [cwd]
 * @property {NodeJS.ProcessEnv} [env]
 * @property {string} [label] name used in progress lines
 * @property {'none' | 'all' | 'throttled'} [echo] how the child's lines reach the console
 * @property {number} [heartbeatMs] a line is printed at least this often while the child runs
 * @property {number} [timeoutMs]
 * @property {string} [logFile] full output is appended here
 *
 * @typedef {object} RunResult
 * @property {number | null} code
 * @property {NodeJS.Signals | null} signal
 * @property {string} stdout
 * @property {string} stderr
 * @property {number} durationMs
 * @property {boolean} timedOut
 */

/**
 * @param {string} command
 * @param {string[]} args
 * @param {RunOptions} [options]
 * @returns {Promise<RunResult>}
 */
function run(command, args, options = {}) {
	const {
		cwd,
		env = process.env,
		label = command,
		echo = 'none',
		heartbeatMs = 15000,
		timeoutMs,
		logFile,
	} = options;
	const started = Date.now();
	const log = logFile ? fs.openSync(logFile, 'a') : undefined;
	if (log !== undefined) fs.writeSync(log, `\n$ ${command} ${args.join(' ')}\n`);

	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd,
			env,
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		live.add(child);
		let stdout = '';
		let stderr = '';
		let lines = 0;
		let lastPrinted = Date.now();
		let lastLine = '';
		let timedOut = false;

		/** @param {string} line */
		const show = (line) => {
			const text = redact(line).slice(0, 200);
			const prefixed = text.startsWith(`${label} `) ? text : `${label}: ${text}`;
			process.stderr.write(`    [${formatDuration(Date.now() - started)}] ${prefixed}\n`);
			lastPrinted = Date.now();
		};

		/** @param {'stdout' | 'stderr'} which */
		const onData = (which) => {
			let partial = '';
			/** @param {Buffer} chunk */
			return (chunk) => {
				const text = chunk.toString('utf8');
				if (which === 'stdout') stdout += text;
				else stderr += text;
				if (log !== undefined) fs.writeSync(log, text);
				const parts = (partial + text).split('\n');
				partial = parts.pop() ?? '';
				for (const raw of parts) {
					const line = raw.trimEnd();
					if (!line) continue;
					lines += 1;
					lastLine = line;
					if (echo === 'all') show(line);
					else if (echo === 'throttled' && Date.now() - lastPrinted >= 2000) show(line);
				}
			};
		};
		child.stdout?.on('data', onData('stdout'));
		child.stderr?.on('data', onData('stderr'));

		const heartbeat = setInterval(() => {
			if (Date.now() - lastPrinted < heartbeatMs) return;
			const last = lastLine ? `; last: ${redact(lastLine).slice(0, 120)}` : '';
			info(
				`  ${label} still running (${formatDuration(Date.now() - started)}, ${lines} lines${last})`,
			);
			lastPrinted = Date.now();
		}, 1000);

		const timer =
			timeoutMs === undefined
				? undefined
				: setTimeout(() => {
						timedOut = true;
						killGroup(child, 'SIGTERM');
						setTimeout(() => killGroup(child, 'SIGKILL'), 5000).unref();
					}, timeoutMs);

		const finish = () => {
			clearInterval(heartbeat);
			if (timer) clearTimeout(timer);
			live.delete(child);
			if (log !== undefined) fs.closeSync(log);
		};
		child.on('error', (err) => {
			finish();
			reject(new Error(`could not start ${command}: ${err.message}`));
		});
		child.on('close', (code, signal) => {
			finish();
			resolve({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
		});
	});
}

/**
 * Starts a long-lived child (simulator, n8n editor) that the caller stops with `stop`.
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env?: NodeJS.ProcessEnv, stdio?: import('node:child_process').StdioOptions}} [options]
 */
function startDetached(command, args, options = {}) {
	const child = spawn(command, args, {
		cwd: options.cwd,
		env: options.env ?? process.env,
		stdio: options.stdio ?? ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	live.add(child);
	child.on('close', () => live.delete(child));
	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		const closed = new Promise((r) => child.once('close', r));
		killGroup(child, 'SIGTERM');
		const force = setTimeout(() => killGroup(child, 'SIGKILL'), 8000);
		await closed;
		clearTimeout(force);
	};
	return { child, stop };
}

/** @param {string} text @param {number} n */
function tail(text, n) {
	return text.split('\n').filter(Boolean).slice(-n).join('\n');
}

module.exports = { run, startDetached, tail, stopChildrenOnSignal };
