'use strict';
// Scenario children run under plain node (no jest), so their RSS is not inflated by jest's module
// registry and transformer cache; the shared TypeScript harness is transpiled on load instead.
const fs = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2022,
	esModuleInterop: true,
	inlineSourceMap: true,
};

require.extensions['.ts'] = (module, filename) => {
	const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
		compilerOptions,
		fileName: filename,
	});
	module._compile(outputText, filename);
};
