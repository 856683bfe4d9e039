// @ts-check
'use strict';

/**
 * The environment without what `npm run` injects. Under `npm run test:e2e` the parent
 * carries `npm_config_*` from the repo's and the user's .npmrc (ignore-scripts, nodedir,
 * ...), which would silently change what a nested npm does.
 * @param {NodeJS.ProcessEnv} [env]
 */
function cleanEnv(env = process.env) {
	/** @type {NodeJS.ProcessEnv} */
	const out = {};
	for (const [key, value] of Object.entries(env)) {
		if (/^npm_/i.test(key) || key === 'INIT_CWD' || key === 'NODE' || key === 'NODE_OPTIONS')
			continue;
		out[key] = value;
	}
	return out;
}

module.exports = { cleanEnv };
