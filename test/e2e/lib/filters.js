// @ts-check
'use strict';

// The flags that narrow a suite to part of the table (lib/matrix.js), shared by the real-n8n
// suites: `--n8n 2.41.0,1.85.4`, and for run.js `--set`, `--only` and `--mode` (each also as
// `--flag=value`; values comma-separated).

const FLAGS = ['n8n', 'set', 'only', 'mode'];

/**
 * @param {string[]} argv the arguments after the script
 * @param {string[]} [allowed] the flags this suite takes
 * @returns {{n8n?: string[], set?: string[], only?: string[], mode?: string[], rest: string[]}}
 */
function parseFilters(argv, allowed = FLAGS) {
	/** @type {Record<string, string[]>} */
	const found = {};
	const rest = [];
	for (let i = 0; i < argv.length; i += 1) {
		const match = /^--([a-z0-9]+)(?:=(.*))?$/.exec(argv[i]);
		if (!match || !allowed.includes(match[1])) {
			rest.push(argv[i]);
			continue;
		}
		const value = match[2] ?? argv[++i];
		if (value === undefined) throw new Error(`--${match[1]} needs a value`);
		found[match[1]] = [
			...(found[match[1]] ?? []),
			...value
				.split(',')
				.map((v) => v.trim())
				.filter(Boolean),
		];
	}
	return { ...found, rest };
}

/**
 * The values a flag keeps of `all`; every value named must be one of them.
 * @template T @param {T[]} all @param {string[] | undefined} named @param {string} what
 * @returns {T[]}
 */
function keep(all, named, what) {
	if (!named) return all;
	const unknown = named.filter((n) => !all.some((a) => String(a) === n));
	if (unknown.length)
		throw new Error(`unknown ${what}: ${unknown.join(', ')} (known: ${all.join(', ')})`);
	return all.filter((a) => named.includes(String(a)));
}

module.exports = { parseFilters, keep };
