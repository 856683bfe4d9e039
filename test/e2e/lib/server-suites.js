// @ts-check
'use strict';

// The suites that run against a running `n8n start` and can share one: per pin, one n8n with the
// packed package, the simulator's credential and the examples the suites open, and each suite the
// table (lib/matrix.js) gives that pin runs against it in turn. One start per pin instead of one
// per suite: n8n's start (migrations, loading every node) is the dearest part of a short suite.
// A suite registers in SUITES with one line; it runs alone through its own script
// (`node test/e2e/credential-test.js`) or with the others (`node test/e2e/server-test.js`).

const path = require('node:path');
const { MATRIX } = require('./matrix');
const { N8N_PINS } = require('./config');
const { parseFilters, keep } = require('./filters');
const { listExamples } = require('./workflows');
const { startSimulator } = require('./simulator');
const {
	preparePackageAndN8n,
	prepareUserFolder,
	makeWorkRoot,
	finishWorkRoot,
} = require('./suite');
const { withN8nServer } = require('./n8n-server');
const { installPackage } = require('../install-package');
const { info, formatDuration } = require('./log');

/**
 * @typedef {object} SuiteContext
 * @property {import('./n8n-server').N8nServer} server
 * @property {import('../install-n8n').N8nInstall} install
 * @property {string} userFolder
 * @property {import('./simulator').RunningSimulator} sim
 * @property {{name: string, id: string}[]} workflows the examples imported, with their ids
 * @property {import('./matrix').ServerRow} row the table's row for this pin
 * @typedef {object} ServerSuite
 * @property {string} title what its step is called
 * @property {string[]} [examples] examples/ it opens (imported with the simulator's credential;
 *   without any, the user folder holds the package alone)
 * @property {() => Record<string, string>} [env] n8n settings its start needs (the other suites on
 *   the same start run with them too)
 * @property {(ctx: SuiteContext) => Promise<{passed: number, failed: number}>} run
 */

/** @type {Record<string, () => ServerSuite>} */
const SUITES = {
	credential: () => require('../credential-test').suite,
	editor: () => require('../editor-test').suite,
	catalog: () => require('../catalog-setup-test').suite,
};

/**
 * The pins each named suite runs on: its rows of the table, among the pins `--n8n` keeps. A pin
 * that none of them runs on is an error only when no suite is left at all.
 * @param {string[]} names @param {string[]} argv
 */
function pinsBySuite(names, argv) {
	const { n8n, rest } = parseFilters(argv, ['n8n']);
	if (rest.length) throw new Error(`unknown arguments: ${rest.join(' ')}`);
	const kept = keep(
		N8N_PINS.map((p) => p.version),
		n8n,
		'n8n version',
	);
	const pins = new Map(
		names.map((name) => [
			name,
			kept.filter((v) => MATRIX.some((row) => row.n8n === v && row.suite === name)),
		]),
	);
	if ([...pins.values()].every((p) => p.length === 0))
		throw new Error(`--n8n ${n8n} selects no n8n version that ${names.join(' or ')} runs on`);
	return pins;
}

/**
 * Runs the named suites, each on the pins the table gives it (narrowed by `--n8n`), on one n8n
 * start per pin.
 * @param {string[]} names
 * @param {string[]} [argv]
 */
async function runServerSuites(names, argv = process.argv.slice(2)) {
	const started = Date.now();
	const pinsOf = pinsBySuite(names, argv);
	const versions = N8N_PINS.map((p) => p.version).filter((v) =>
		[...pinsOf.values()].some((pins) => pins.includes(v)),
	);
	const workRoot = makeWorkRoot('product-image-server');
	const { installs, tarball } = await preparePackageAndN8n({ versions, workRoot });
	const sim = await startSimulator();
	let passed = 0;
	let failed = 0;
	try {
		for (const version of versions) {
			const here = names
				.filter((name) => pinsOf.get(name)?.includes(version))
				.map((name) => ({ name, suite: SUITES[name](), row: rowOf(name, version) }));
			const wanted = new Set(here.flatMap(({ suite }) => suite.examples ?? []));
			const userFolder = path.join(workRoot, `n8n-${version}`);
			// Importing is an n8n command of its own, a whole n8n start: only when a suite opens examples.
			const { workflows } = wanted.size
				? await prepareUserFolder({
						install: installs.n8n[version],
						tarball,
						userFolder,
						service: sim,
						examples: listExamples().filter((e) => wanted.has(e.name)),
						pins: 'pinData',
					})
				: await installPackage({ node: installs.n8n[version].node, userFolder, tarball }).then(
						() => ({ workflows: [] }),
					);
			const t = Date.now();
			info(`n8n ${version}: starting n8n for ${here.map((h) => h.name).join(', ')}`);
			const env = Object.assign({}, ...here.map(({ suite }) => suite.env?.() ?? {}));
			await withN8nServer({ install: installs.n8n[version], userFolder, env }, async (server) => {
				info(`n8n ${version}: up in ${formatDuration(Date.now() - t)} at ${server.url}`);
				for (const { name, suite, row } of here) {
					const s = Date.now();
					const result = await suite.run({
						server,
						install: installs.n8n[version],
						userFolder,
						sim,
						workflows,
						row,
					});
					passed += result.passed;
					failed += result.failed;
					info(`n8n ${version}: ${name} took ${formatDuration(Date.now() - s)}`);
				}
			});
		}
	} finally {
		await sim.stop();
		finishWorkRoot(workRoot, failed, started);
	}
	return { passed, failed };
}

/** @param {string} suite @param {string} version */
function rowOf(suite, version) {
	const row = MATRIX.find((r) => r.n8n === version && r.suite === suite);
	return /** @type {import('./matrix').ServerRow} */ (row);
}

/** The suites that share a start, with their step titles: scripts/test.js runs them as one step. */
const sharedStartSuites = () =>
	Object.fromEntries(Object.entries(SUITES).map(([name, suite]) => [name, suite().title]));

module.exports = { runServerSuites, sharedStartSuites };
