/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	rootDir: __dirname,
	roots: ['<rootDir>'],
	testMatch: ['**/*.bench.ts'],
	transform: {
		'^.+\\.ts$': [
			'ts-jest',
			{ tsconfig: '<rootDir>/tsconfig.json', diagnostics: { warnOnly: false } },
		],
	},
	// Scenarios measure CPU, wall time and RSS: nothing of the bench may run beside them.
	maxWorkers: 1,
	testTimeout: 300_000,
};
