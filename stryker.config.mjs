// Mutation testing of the code that guards money (submits), keys (the request path) and cancels
// (the wait, the run's stop signal), and of the code where a slip misleads an operator or bills
// (the credential test, the values sent, the output's shape, the labels errors name). Run with
// `npm run mutation`, which picks a Node that StrykerJS accepts and writes docs/mutation.md from
// the JSON report.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ts from 'typescript';

const { RECORD } = createRequire(import.meta.url)('./test/mutation/record.js');

/**
 * What is mutated: whole files, or the named functions (and class methods) of a file. Left out are
 * the functions that only word a message or read a parameter, except where a slip would send a
 * value the user did not choose, pass a credential that does not work, or name the wrong field:
 * the fault table and the parameter suites guard the rest, and every mutant here costs every test
 * that reaches it.
 */
export const GUARDED = {
	// The request path: the one retry rule, the 429 pause, the cancellable sleep; the entry, with
	// the run's state and its stop (after another item failed, nothing more is sent).
	'nodes/ProductImage/transport/retry.ts': '*',
	'nodes/ProductImage/transport/request.ts': '*',
	// One attempt: redirects (where the key may go), reply limits and what a reply means.
	'nodes/ProductImage/transport/send.ts': [
		'send',
		'readLimited',
		'failedReply',
		'envelopeFailure',
		'classifyJsonReply',
		'classifyDownloadReply',
	],
	// Redaction, and the facts the retry rule decides by. The code lists these readers share are
	// module constants, which Stryker leaves alone (ignoreStatic); the code tables of
	// test/unit/transport.test.ts check them code by code.
	'nodes/ProductImage/transport/errors.ts': [
		'parseRetryAfter',
		'isTlsCode',
		'findNetworkCode',
		'isTimeoutCode',
		'nothingSent',
		'redactSecrets',
		'redactFailure',
		'failureFromException',
	],
	// The wait and poll loop, and the task query it polls with.
	'nodes/ProductImage/helpers/waitForTask.ts': [
		'missedPollDelay',
		'cancelled',
		'waitForTask',
		'collectTask',
	],
	'nodes/ProductImage/helpers/task.ts': ['queryTask'],
	// The submit and the spending guard.
	'nodes/ProductImage/helpers/generation.ts': ['checkGenerationCount', 'submitGeneration'],
	'nodes/ProductImage/router.ts': '*',
	// The credential's Test button: a valid key that fails it, or a wrong one that passes.
	'nodes/ProductImage/methods/credentialTest.ts': '*',
	// Where a list's Other value is read: a slip sends the list's own value ('custom').
	// The output's shape (Simplified and Selected Fields) too.
	'nodes/ProductImage/v2/reading.ts': [
		'fieldsBeside',
		'readField',
		'readChoice',
		'pick',
		'shapeOutput',
	],
	'nodes/ProductImage/descriptions/common.descriptions.ts': ['otherFieldName'],
	// The A+ plan's items per module, a store's description as plain text; a module item read as a
	// generation's source.
	'nodes/ProductImage/helpers/aPlus.ts': '*',
	'nodes/ProductImage/v2/actions/image/readGeneration.ts': ['readModuleSource', 'describeItem'],
	// The plan's request read from either version's panel: the description, the modules, the target.
	'nodes/ProductImage/helpers/aPlusPlan.ts': '*',
	// The label an error names, as the version's panel shows it.
	'nodes/ProductImage/helpers/parameters.ts': [
		'allParameters',
		'innerParameters',
		'propertyIn',
		'labelOf',
		'quotedName',
	],
	// The field a refused request names, and the option a rate limit names.
	'nodes/ProductImage/transport/guidance.ts': ['refusedField', 'slowDown'],
};

/** `file:line:column-line:column` of each named function, as StrykerJS's mutate takes ranges. */
function rangesOf(file, names) {
	if (names === '*') return [file];
	const text = readFileSync(file, 'utf8');
	const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
	const found = new Map();
	const visit = (node) => {
		const named =
			ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)
				? node.name?.getText()
				: undefined;
		if (named && names.includes(named)) {
			const start = source.getLineAndCharacterOfPosition(node.getStart());
			const end = source.getLineAndCharacterOfPosition(node.getEnd());
			found.set(
				named,
				`${file}:${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}`,
			);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	const missing = names.filter((name) => !found.has(name));
	// A renamed function would silently fall out of the run: refuse instead.
	if (missing.length)
		throw new Error(`stryker.config.mjs: no function ${missing.join(', ')} in ${file}`);
	return names.map((name) => found.get(name));
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'test/mutation/jest.config.js',
		enableFindRelatedTests: false,
	},
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.build.json',
	// The engine tests load the package from dist/, as n8n does: the mutated sources are built there.
	buildCommand: 'npm run build',
	mutate: Object.entries(GUARDED).flatMap(([file, names]) => rangesOf(file, names)),
	// A whole run takes most of an hour on 2 cores. Results are kept between runs, in the cache folder
	// (test/mutation/record.js says why there), and reused where neither the mutated code nor the
	// tests that reach it changed: a run can be done in parts.
	incremental: true,
	incrementalFile: RECORD,
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
