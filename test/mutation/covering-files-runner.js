// jest's own runner, except that a mutant's run loads only the test files that hold a test it runs.
//
// StrykerJS runs a mutant's covering tests by name (jest's testNamePattern) over every file of
// test/mutation/jest.config.js, and jest loads each file, n8n-core and the harness with it, even
// when none of its tests match: about 40 s of processor time per mutant on 2 cores before a single
// test runs. The unfiltered run (Stryker's first, coverage-measuring run) records which test names
// each file holds; a mutant's run then keeps the files with a name the pattern matches, the same
// match jest makes (a case-insensitive RegExp on the full name), so the tests that run are the same.
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
			const names = {};
			this.on('test-file-success', ([test, result]) => {
				names[test.path] = result.testResults.map((t) => t.fullName);
			});
			try {
				return await super.runTests(tests, watcher, options);
			} finally {
				fs.writeFileSync(record, JSON.stringify(names));
			}
		}
		if (process.env[ACTIVE_MUTANT] !== undefined && fs.existsSync(record)) {
			const names = JSON.parse(fs.readFileSync(record, 'utf8'));
			const wanted = new RegExp(pattern, 'i');
			// A file the record does not know (it failed in the first run) is kept: better slow than blind.
			tests = tests.filter(
				(test) => !names[test.path] || names[test.path].some((name) => wanted.test(name)),
			);
		}
		return super.runTests(tests, watcher, options);
	}
}

module.exports = CoveringFilesRunner;
