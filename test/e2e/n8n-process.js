// @ts-check
'use strict';

// Runs the n8n CLI of one installed version, headless, against one isolated user folder.

const fs = require('node:fs');
const path = require('node:path');
const { run, startDetached, tail } = require('./lib/proc');
const { freePort } = require('./lib/ports');
const { cleanEnv } = require('./lib/env');
const { executeVerdict } = require('./lib/parse-output');
const { redact } = require('./lib/redact');
const { nextMajorDefaults } = require('./lib/next-major-defaults');
const { LOADED_MACHINE_MS, LOADED_RUN_MS } = require('./lib/waits');

/**
 * @typedef {import('./install-n8n').N8nInstall} N8nInstall
 * @typedef {'default' | 'filesystem'} BinaryMode
 * @typedef {object} N8nOptions
 * @property {N8nInstall} install
 * @property {string} userFolder n8n keeps its data in `<userFolder>/.n8n`
 * @property {BinaryMode} [binaryMode] n8n's own default when absent (memory on 1.x, the file store on 2.x)
 * @property {number} [brokerPort] chosen free when absent
 * @property {NodeJS.ProcessEnv} [env] extra variables
 */

/** The installed n8n's task-runner settings, as `@n8n/config` reads them. @param {N8nInstall} install */
const runnersConfig = (install) =>
	fs.readFileSync(
		path.join(
			install.dir,
			'node_modules',
			'@n8n',
			'config',
			'dist',
			'configs',
			'runners.config.js',
		),
		'utf8',
	);

/**
 * The task broker's port variable, read from the installed `@n8n/config` so a version that
 * renames it is noticed here rather than by two runs fighting over port 5679.
 * @param {N8nInstall} install
 */
function brokerPortVariable(install) {
	try {
		const match = /Env\)\('([A-Z0-9_]*BROKER_PORT)'/.exec(runnersConfig(install));
		if (match) return match[1];
	} catch {
		/* fall through to the name every version so far has used */
	}
	return 'N8N_RUNNERS_BROKER_PORT';
}

/**
 * Whether this n8n has the workflow setting Binary Mode "combined" (n8n 2.x): its engine then
 * moves output files into the item's JSON (n8n-core's `utils/convert-binary-data`).
 * @param {N8nInstall} install
 */
function hasCombinedBinaryMode(install) {
	return fs.existsSync(
		path.join(install.dir, 'node_modules', 'n8n-core', 'dist', 'utils', 'convert-binary-data.js'),
	);
}

/** @param {N8nOptions} options */
async function createN8n(options) {
	const { install, userFolder, binaryMode } = options;
	fs.mkdirSync(userFolder, { recursive: true });
	const brokerPort = options.brokerPort ?? (await freePort());
	const brokerVariable = brokerPortVariable(install);

	// n8n settings of the caller's shell (a developer's own N8N_PORT, DB_TYPE=postgresdb,
	// N8N_LOG_FORMAT=json...) would leak into the isolated instance and change what it prints.
	const inherited = Object.fromEntries(
		Object.entries(cleanEnv()).filter(
			([key]) => !/^(N8N_|DB_|EXECUTIONS_|QUEUE_|WEBHOOK_URL$|NODE_FUNCTION_ALLOW_)/.test(key),
		),
	);
	/** @type {NodeJS.ProcessEnv} */
	const env = {
		...inherited,
		PATH: `${install.node.binDir}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		[brokerVariable]: String(brokerPort),
		...(binaryMode ? { N8N_DEFAULT_BINARY_DATA_MODE: binaryMode } : {}),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_DIAGNOSTICS_CONFIG_FRONTEND: '',
		N8N_DIAGNOSTICS_CONFIG_BACKEND: '',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_SECURE_COOKIE: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_REINSTALL_MISSING_PACKAGES: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		EXTERNAL_FRONTEND_HOOKS_URLS: '',
		N8N_LOG_LEVEL: 'info',
		N8N_LOG_OUTPUT: 'console',
		DB_TYPE: 'sqlite',
		// n8n's own limits on its task runner's start: on a loaded machine the runner took longer
		// than the 30 s its grant token lives, and a Code node's task was refused after the 60 s a
		// request waits for a runner ("Task request timed out"). Sized like every other wait.
		N8N_RUNNERS_GRANT_TOKEN_TTL: String(LOADED_MACHINE_MS / 1000),
		N8N_RUNNERS_TASK_REQUEST_TIMEOUT: String(LOADED_MACHINE_MS / 1000),
		...nextMajorDefaults(install),
		...options.env,
	};

	/**
	 * @param {string[]} args
	 * @param {{timeoutMs?: number, echo?: 'none' | 'all' | 'throttled', label?: string, env?: NodeJS.ProcessEnv}} [o]
	 *   `env`: settings of this command alone, after the instance's
	 */
	const cli = (args, o = {}) =>
		run(install.node.node, [install.entry, ...args], {
			cwd: userFolder,
			env: { ...env, ...o.env },
			timeoutMs: o.timeoutMs ?? LOADED_RUN_MS,
			echo: o.echo ?? 'none',
			label: o.label ?? `n8n ${install.version}`,
		});

	/** @param {string} what @param {import('./lib/proc').RunResult} result */
	const check = (what, result) => {
		if (result.code === 0) return result;
		throw new Error(
			`n8n ${install.version} ${what} failed (exit ${result.code}${result.timedOut ? ', timed out' : ''}):\n` +
				redact(tail(`${result.stdout}\n${result.stderr}`, 25)),
		);
	};

	const instance = {
		version: install.version,
		userFolder,
		n8nFolder: path.join(userFolder, '.n8n'),
		brokerPort,
		brokerVariable,
		binaryMode,
		env,
		cli,

		/** Applies to the commands started after the call. @param {BinaryMode} mode */
		setBinaryMode: (mode) => {
			env.N8N_DEFAULT_BINARY_DATA_MODE = mode;
			instance.binaryMode = mode;
		},

		/** @param {string} file JSON array of credentials; plain `data` is encrypted on import */
		importCredentials: async (file) =>
			check('import:credentials', await cli(['import:credentials', `--input=${file}`])),

		/** @param {string} file one workflow (with an `id`) or an array of them */
		importWorkflow: async (file) =>
			check('import:workflow', await cli(['import:workflow', `--input=${file}`])),

		/**
		 * Never throws for a failed workflow: the caller decides whether a failure was wanted.
		 * @param {string} id
		 * @param {{timeoutMs?: number, env?: NodeJS.ProcessEnv}} [o] `env`: settings of this run alone
		 */
		executeWorkflow: async (id, o = {}) => {
			const result = await cli(['execute', `--id=${id}`, '--rawOutput'], {
				timeoutMs: o.timeoutMs,
				env: o.env,
			});
			return {
				...executeVerdict(result),
				exitCode: result.code,
				/** The signal that ended n8n, when one did: a crash or a kill, not n8n's own exit. */
				exitSignal: result.signal,
				timedOut: result.timedOut,
				durationMs: result.durationMs,
				stdout: result.stdout,
				stderr: result.stderr,
			};
		},

		/**
		 * Starts the editor and resolves once it answers on its port.
		 * @param {{port?: number, stdio?: import('node:child_process').StdioOptions, readyTimeoutMs?: number}} [o]
		 */
		startEditor: async (o = {}) => {
			const port = o.port ?? 5678;
			const editorEnv = {
				...env,
				N8N_PORT: String(port),
				N8N_HOST: 'localhost',
				N8N_LISTEN_ADDRESS: '127.0.0.1',
			};
			const proc = startDetached(install.node.node, [install.entry, 'start'], {
				cwd: userFolder,
				env: editorEnv,
				stdio: o.stdio,
			});
			const url = `http://localhost:${port}`;
			await waitForHttp(
				`http://127.0.0.1:${port}/healthz`,
				o.readyTimeoutMs ?? LOADED_MACHINE_MS,
				proc.child,
			);
			return { url, port, ...proc };
		},
	};
	return instance;
}

/**
 * @param {string} url
 * @param {number} timeoutMs
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitForHttp(url, timeoutMs, child) {
	const http = require('node:http');
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (child.exitCode !== null || child.signalCode !== null)
			throw new Error(`n8n exited (code ${child.exitCode}) before it answered on ${url}`);
		const ok = await new Promise((resolve) => {
			const req = http.get(url, { timeout: 2000 }, (res) => {
				res.resume();
				resolve((res.statusCode ?? 500) < 500);
			});
			req.on('error', () => resolve(false));
			req.on('timeout', () => req.destroy());
		});
		// What answered may be another process on the port, while this n8n gave up on it.
		if (ok && child.exitCode === null && child.signalCode === null) return;
		await new Promise((r) => setTimeout(r, 1000));
	}
	throw new Error(`n8n did not answer on ${url} within ${Math.round(timeoutMs / 1000)} s`);
}

module.exports = { createN8n, brokerPortVariable, hasCombinedBinaryMode, runnersConfig };
