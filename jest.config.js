/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The engine tests load dist/: build it from the sources first when they changed.
	globalSetup: '<rootDir>/test/build-dist.js',
	// ts-jest compiles each file on its own (tsconfig's isolatedModules), without type-checking it:
	// `npm run typecheck` checks the tests' types, and jest takes a third less processor time.
	transform: {
		'^.+\\.ts$': [
			'ts-jest',
			{ tsconfig: '<rootDir>/tsconfig.json', diagnostics: { warnOnly: false } },
		],
	},
	// The engine and the simulator are real servers and timers: keep runs from leaking into each other.
	maxWorkers: 2,
	testTimeout: 60_000,
	reporters: ['default', '<rootDir>/test/reporters/summary.js'],
};
