#!/usr/bin/env node
// @ts-check
'use strict';

const { startSimulator, DEFAULT_CONFIG } = require('./index');

const USAGE = `Usage: node test/simulator/cli.js [options]

  --port N                  main origin port (default 0: any free port)
  --cdn-port N              cdn origin port (default 0)
  --key K                   API key (default sim-key-0123456789)
  --json                    print {"baseUrl","cdnUrl","apiKey"} as the first stdout line
  --verbose                 log each request to stderr
  --<config-key> VALUE      any config key in kebab case, for example
                            --task-duration-ms 500 --images-per-task 2 --downloads cdn
                            --task-outcome fail --error-shape nested --results-in-data false
                            --status-words '{"succeeded":"COMPLETED"}'
Config keys: ${Object.keys(DEFAULT_CONFIG).join(', ')}`;

/** @param {string} s */
const camel = (s) => s.replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());

/**
 * @param {string[]} argv
 * @returns {{options: Record<string, unknown>, json: boolean, verbose: boolean, help: boolean}}
 */
function parseArgs(argv) {
	/** @type {Record<string, unknown>} */
	const options = {};
	let json = false;
	let verbose = false;
	let help = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (!arg.startsWith('--')) throw new Error(`unexpected argument '${arg}'`);
		const eq = arg.indexOf('=');
		const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
		/** @returns {string} */
		const value = () => {
			if (eq >= 0) return arg.slice(eq + 1);
			const next = argv[i + 1];
			if (next === undefined || next.startsWith('--')) throw new Error(`--${name} needs a value`);
			i++;
			return next;
		};
		/** @param {string} v */
		const number = (v) => {
			const n = v === 'Infinity' ? Infinity : Number(v);
			if (v.trim() === '' || Number.isNaN(n))
				throw new Error(`--${name} needs a number, got '${v}'`);
			return n;
		};

		if (name === 'json') json = true;
		else if (name === 'verbose') verbose = true;
		else if (name === 'help' || name === 'h') help = true;
		else if (name === 'port') options.port = number(value());
		else if (name === 'cdn-port') options.cdnPort = number(value());
		else if (name === 'key' || name === 'api-key') options.apiKey = value();
		else {
			const key = camel(name);
			if (!Object.hasOwn(DEFAULT_CONFIG, key)) throw new Error(`unknown option --${name}`);
			const def = DEFAULT_CONFIG[/** @type {keyof typeof DEFAULT_CONFIG} */ (key)];
			if (typeof def === 'boolean') {
				const next = eq >= 0 ? arg.slice(eq + 1) : argv[i + 1];
				if (next === 'true' || next === 'false') {
					options[key] = next === 'true';
					if (eq < 0) i++;
				} else if (eq >= 0) {
					throw new Error(`--${name} needs true or false, got '${next}'`);
				} else {
					options[key] = true;
				}
			} else if (typeof def === 'number') {
				options[key] = number(value());
			} else if (Array.isArray(def)) {
				options[key] = value().split(',').map(number);
			} else if (typeof def === 'object') {
				const text = value();
				try {
					options[key] = JSON.parse(text);
				} catch {
					throw new Error(`--${name} needs JSON, got '${text}'`);
				}
			} else {
				options[key] = value();
			}
		}
	}
	return { options, json, verbose, help };
}

async function main() {
	let parsed;
	try {
		parsed = parseArgs(process.argv.slice(2));
	} catch (err) {
		process.stderr.write(`${/** @type {Error} */ (err).message}\n\n${USAGE}\n`);
		process.exitCode = 2;
		return;
	}
	if (parsed.help) {
		process.stdout.write(`${USAGE}\n`);
		return;
	}
	const { options, json, verbose } = parsed;
	if (verbose) {
		options.onRequest = (/** @type {import('./state').RequestRecord} */ r) =>
			process.stderr.write(
				`${new Date(r.at).toISOString()} ${r.origin} ${r.method} ${r.path} [${r.route}]\n`,
			);
	}

	let sim;
	try {
		sim = await startSimulator(/** @type {import('./index').SimulatorOptions} */ (options));
	} catch (err) {
		process.stderr.write(`simulator failed to start: ${/** @type {Error} */ (err).message}\n`);
		process.exitCode = 1;
		return;
	}
	if (json)
		process.stdout.write(
			`${JSON.stringify({ baseUrl: sim.baseUrl, cdnUrl: sim.cdnUrl, apiKey: sim.apiKey })}\n`,
		);
	process.stdout.write(
		`Product Image simulator listening on ${sim.baseUrl} (cdn ${sim.cdnUrl}), API key: ${sim.apiKey}\n`,
	);

	const running = sim;
	let stopping = false;
	const stop = () => {
		if (stopping) return;
		stopping = true;
		running.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

main();
