// jest's own runner, except that a mutant's run loads only the test files that hold a test it runs,
// quickest first, and stops at the first file with a failing test.
//
// StrykerJS runs a mutant's covering tests by name (jest's testNamePattern) over every file of
// test/mutation/jest.config.js, and jest loads each file, n8n-core and the harness with it, even
// when none of its tests match: about 40 s of processor time per mutant on 2 cores before a single
// test runs. And Stryker cannot make jest stop at a failure (it turns jest's bail off), so a mutant
// of the request path, which nearly every test reaches, cost a whole suite run even when its first
// test killed it. The unfiltered run (Stryker's first, coverage-measuring run) records which test
// names each file holds and how long the file took; a mutant's run then keeps the files with a
// name the pattern matches, the same match jest makes (a case-insensitive RegExp on the full name),
// runs them one at a time from the quickest, and ends at the first failing one: the mutant is
// killed by then. A mutant that survives still runs every test that covers it.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const TestRunner = require('jest-runner').default;

/** Set by StrykerJS for a mutant's run; outside one, every file runs as usual. */
const ACTIVE_MUTANT = '__STRYKER_ACTIVE_MUTANT__';

/** One record per project folder (each Stryker sandbox is its own), outside the tree. */
function recordFile(rootDir) {
	const hash = crypto.createHash('sha1').update(rootDir).digest('hex').slice(0, 12);
	return path.join(os.tmpdir(), `product-image-tests-by-file-${hash}.json`);
}

class CoveringFilesRunner extends TestRunner {
	async runTests(tests, watcher, options) {
		const pattern = this._globalConfig.testNamePattern;
		const record = recordFile(this._globalConfig.rootDir);
		if (!pattern) {
			const files = {};
			this.on('test-file-success', ([test, result]) => {
				files[test.path] = {
					names: result.testResults.map((t) => t.fullName),
					ms: result.perfStats.runtime,
				};
			});
			try {
				return await super.runTests(tests, watcher, options);
			} finally {
				fs.writeFileSync(record, JSON.stringify(files));
			}
		}
		if (process.env[ACTIVE_MUTANT] === undefined || !fs.existsSync(record))
			return super.runTests(tests, watcher, options);
		const files = JSON.parse(fs.readFileSync(record, 'utf8'));
		const wanted = new RegExp(pattern, 'i');
		// A file the record does not know (it failed in the first run) is kept: better slow than blind.
		const covering = tests
			.filter((test) => !files[test.path] || files[test.path].names.some((n) => wanted.test(n)))
			.sort((a, b) => (files[a.path]?.ms ?? Infinity) - (files[b.path]?.ms ?? Infinity));
		let failed = false;
		this.on('test-file-success', ([, result]) => {
			if (result.numFailingTests > 0 || result.testExecError) failed = true;
		});
		this.on('test-file-failure', () => {
			failed = true;
		});
		for (const test of covering) {
			if (failed) break;
			await super.runTests([test], watcher, options);
		}
	}
}

module.exports = CoveringFilesRunner;
