// The suites `npm run mutation` runs against each mutant: those that drive the request path, the
// wait and its cancel, the submit and the router, the credential test, the output's shape and the
// reading of the panel's values. Description, parsing and polling-schedule suites
// never reach that code, and the whole set would not finish on a 2-core machine.
const base = require('../../jest.config');

module.exports = {
	...base,
	rootDir: '../..',
	testMatch: [
		'<rootDir>/test/unit/transport.test.ts',
		'<rootDir>/test/unit/cancel-latency.test.ts',
		'<rootDir>/test/unit/redaction.test.ts',
		'<rootDir>/test/unit/retry-pause.test.ts',
		'<rootDir>/test/faults/cancellation.test.ts',
		'<rootDir>/test/faults/key-and-origins.test.ts',
		'<rootDir>/test/faults/connection.test.ts',
		'<rootDir>/test/faults/server-errors.test.ts',
		'<rootDir>/test/faults/rate-limits.test.ts',
		'<rootDir>/test/faults/permanent-failures.test.ts',
		'<rootDir>/test/engine/parameters-and-failures.test.ts',
		'<rootDir>/test/engine/wait-outcomes.test.ts',
		'<rootDir>/test/v2/image/generateAndWait.test.ts',
		'<rootDir>/test/v1/image/generateAndWait.test.ts',
		'<rootDir>/test/v2/image/generate.test.ts',
		'<rootDir>/test/v1/image/generate.test.ts',
		'<rootDir>/test/engine/generated-items.test.ts',
		'<rootDir>/test/engine/task-status-words.test.ts',
		// Task → Get, Task → Wait for Completion and Image → Download, whose suite holds what every
		// request asks for (accept, the submit's request id).
		'<rootDir>/test/v2/task/get.test.ts',
		'<rootDir>/test/v2/task/wait.test.ts',
		'<rootDir>/test/v2/image/download.test.ts',
		'<rootDir>/test/engine/polling.test.ts',
		'<rootDir>/test/unit/parsing.test.ts',
		'<rootDir>/test/unit/foreign-host-guidance.test.ts',
		// The replies the node reads in other shapes, and what it quotes of one it cannot read.
		'<rootDir>/test/engine/result-variants.test.ts',
		'<rootDir>/test/unit/quote-reply.test.ts',
		// The credential's Test button, the output's shape, the A+ plan and module reading, Other.
		'<rootDir>/test/engine/credential-test.test.ts',
		'<rootDir>/test/engine/current-version.test.ts',
		'<rootDir>/test/v2/aPlusPlan/create.test.ts',
		'<rootDir>/test/v1/aPlusPlan/create.test.ts',
		'<rootDir>/test/engine/store-images.test.ts',
		'<rootDir>/test/engine/wait-through-outages.test.ts',
		'<rootDir>/test/unit/versions.test.ts',
		// A store's HTML and the brief's Markdown as the plan receives them, module titles, module items.
		'<rootDir>/test/unit/a-plus-text.test.ts',
		// A parameter's label read from the description by its name, and a name it does not hold.
		'<rootDir>/test/unit/parameter-lookup.test.ts',
	],
	reporters: ['default'],
	// A mutant's run loads only the files that hold the tests it runs (see the runner).
	runner: '<rootDir>/test/mutation/covering-files-runner.js',
};
