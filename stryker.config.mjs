// Mutation testing of the code that guards money (submits), keys (the request path) and cancels
// (the wait, the run's stop signal). Run with `npm run mutation`, which picks a Node that StrykerJS
// accepts and writes docs/mutation.md from the JSON report.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'test/mutation.jest.config.js',
		enableFindRelatedTests: false,
	},
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.build.json',
	// The engine tests load the package from dist/, as n8n does: the mutated sources are built there.
	buildCommand: 'npm run build',
	mutate: [
		'nodes/ProductImage/transport/retry.ts',
		'nodes/ProductImage/helpers/runControl.ts',
		'nodes/ProductImage/helpers/generation.ts',
		'nodes/ProductImage/actions/router.ts',
		'nodes/ProductImage/transport/errors.ts',
		'nodes/ProductImage/transport/send.ts',
		'nodes/ProductImage/transport/index.ts',
		'nodes/ProductImage/helpers/waitForTask.ts',
	],
	coverageAnalysis: 'perTest',
	ignoreStatic: true,
	concurrency: 2,
	timeoutMS: 20_000,
	// The first run, instrumented and in one jest process, takes minutes on a busy 2-core machine.
	dryRunTimeoutMinutes: 30,
	reporters: ['json', 'clear-text', 'progress'],
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	tempDirName: '.stryker-tmp',
	cleanTempDir: true,
};
