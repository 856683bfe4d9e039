// @ts-check
'use strict';

// The steps run.js, dev.js and demo.js share: install, pack, and one prepared user folder
// per n8n version holding the packed package, the credential and the example workflows.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureInstalled } = require('../install-n8n');
const { build, pack, installPackage } = require('../install-package');
const { createN8n } = require('../n8n-process');
const { prepareWorkflow, writeCredentialFile, setFolders, stableId } = require('./workflows');
const { info, formatDuration } = require('./log');
const { stopChildrenOnSignal } = require('./proc');
const { redact } = require('./redact');
const { ensureGraphicsMagick } = require('./system-packages');

/**
 * @param {{versions: string[], build?: boolean, workRoot: string}} options
 */
async function preparePackageAndN8n(options) {
	const installs = await ensureInstalled(options.versions);
	await ensureGraphicsMagick();
	if (options.build ?? process.env.PRODUCT_IMAGE_E2E_SKIP_BUILD !== '1') await build();
	else info('skipping the build (PRODUCT_IMAGE_E2E_SKIP_BUILD=1)');
	const tarball = await pack({
		node: installs.node,
		destination: path.join(options.workRoot, 'pack'),
	});
	return { installs, tarball };
}

/** @param {string} prefix */
function makeWorkRoot(prefix) {
	return fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
}

/**
 * @typedef {{name: string, file: string, set: import('./workflows').SetName, id: string, workflow: any}} ImportedWorkflow
 * @param {object} options
 * @param {import('../install-n8n').N8nInstall} options.install
 * @param {string} options.tarball
 * @param {string} options.userFolder
 * @param {{baseUrl: string, apiKey: string, credentialName?: string}} options.service
 * @param {import('./workflows').WorkflowFile[]} options.examples workflows of any sets; the files
 *   their sets bring are copied to `<user folder>/files`, the one folder n8n's file nodes may then
 *   use (relative paths start at the user folder)
 * @param {{baseUrl: string, apiKey: string}} [options.llm] the fake OpenAI endpoint, when an example needs a model
 * @param {'replace' | 'pinData'} [options.pins]
 * @param {import('../n8n-process').BinaryMode} [options.binaryMode]
 * @param {(imported: ImportedWorkflow[]) => any[]} [options.copies] further workflows made from the
 *   prepared ones (each with its own `id`), imported with them
 */
async function prepareUserFolder(options) {
	const { install, tarball, userFolder, service, examples } = options;
	await installPackage({ node: install.node, userFolder, tarball });
	const filesFolder = path.join(userFolder, 'files');
	const fileSets = [...new Set(examples.map((e) => setFolders(e.set).files).filter(Boolean))];
	for (const files of fileSets) fs.cpSync(String(files), filesFolder, { recursive: true });
	const n8n = await createN8n({
		install,
		userFolder,
		binaryMode: options.binaryMode,
		env: fileSets.length ? { N8N_RESTRICT_FILE_ACCESS_TO: filesFolder } : undefined,
	});

	const credentialFile = path.join(userFolder, 'credentials.json');
	writeCredentialFile(credentialFile, service, options.llm);
	await n8n.importCredentials(credentialFile);
	// The plain-text copy is only needed for the import, which stores it encrypted.
	fs.rmSync(credentialFile, { force: true });

	/** @type {ImportedWorkflow[]} */
	const imported = [];
	const workflowsDir = path.join(userFolder, 'workflows');
	fs.mkdirSync(workflowsDir, { recursive: true });
	for (const example of examples) {
		const workflow = prepareWorkflow(example, { pins: options.pins ?? 'replace' });
		// Saved copies of an example (fixtures/v1-workflows) keep its id: one folder takes both.
		if (imported.some((w) => w.id === workflow.id))
			workflow.id = stableId(`${example.set}/${example.name}`);
		const file = path.join(workflowsDir, `${example.set}.${example.name}.json`);
		fs.writeFileSync(file, JSON.stringify(workflow, null, 2));
		imported.push({ ...example, file, id: workflow.id, workflow });
	}
	// One import for all of them: each n8n command starts n8n anew (about 4 s on 2 cores).
	const all = [...imported.map((w) => w.workflow), ...(options.copies?.(imported) ?? [])];
	if (all.length > 0) {
		const file = path.join(userFolder, 'workflows.json');
		fs.writeFileSync(file, JSON.stringify(all));
		await n8n.importWorkflow(file);
	}
	return { n8n, workflows: imported };
}

/**
 * Removes the work folder after a clean run; keeps it for inspection after a failure or with
 * PRODUCT_IMAGE_E2E_KEEP=1.
 * @param {string} workRoot @param {number} failed @param {number} started
 */
function finishWorkRoot(workRoot, failed, started) {
	if (failed === 0 && process.env.PRODUCT_IMAGE_E2E_KEEP !== '1')
		fs.rmSync(workRoot, { recursive: true, force: true });
	else info(`kept the work folder for inspection: ${workRoot}`);
	info(`finished in ${formatDuration(Date.now() - started)}`);
}

/**
 * @typedef {{passed: number, failed: number}} Counts
 * @typedef {object} Pin one pinned n8n of a suite, with a user folder of its own in the work folder
 * @property {string} version
 * @property {import('../install-n8n').N8nInstall} install
 * @property {string} tarball the packed package
 * @property {string} userFolder
 */

/**
 * What a suite over the pinned n8n versions does around its cases: a work folder, the installs
 * and the packed package, what the suite starts beside n8n (`setUp`, stopped at the end whatever
 * happens), then `each` once per version. The work folder is removed after a clean run and kept
 * after a failure.
 * @template T
 * @param {object} o
 * @param {string} o.prefix the work folder's name
 * @param {string[]} o.versions
 * @param {(prepared: Awaited<ReturnType<typeof preparePackageAndN8n>>) => Promise<{context: T, stop: () => Promise<unknown>}>} o.setUp
 * @param {(pin: Pin, context: T) => Promise<Counts>} each
 * @returns {Promise<Counts>}
 */
async function runOnPins(o, each) {
	const started = Date.now();
	const workRoot = makeWorkRoot(o.prefix);
	info(`work folder: ${workRoot}`);
	const prepared = await preparePackageAndN8n({ versions: o.versions, workRoot });
	const { context, stop } = await o.setUp(prepared);
	const total = { passed: 0, failed: 0 };
	let ended = false;
	try {
		for (const version of o.versions) {
			const userFolder = path.join(workRoot, `n8n-${version}`);
			const install = prepared.installs.n8n[version];
			const counts = await each(
				{ version, install, tarball: prepared.tarball, userFolder },
				context,
			);
			total.passed += counts.passed;
			total.failed += counts.failed;
		}
		ended = true;
	} finally {
		await stop();
		finishWorkRoot(workRoot, ended ? total.failed : total.failed + 1, started);
	}
	return total;
}

/**
 * Runs a suite's `main` and ends with the line CI reads, "N passed, N failed".
 * @param {string} name @param {() => Promise<{passed: number, failed: number}>} main
 */
function runSuite(name, main) {
	stopChildrenOnSignal();
	main().then(
		({ passed, failed }) => {
			console.log(`${passed} passed, ${failed} failed`);
			// A selection that matched nothing (no version, no mode, every case skipped) proves nothing.
			if (passed + failed === 0)
				console.log(`${name} ran nothing: check the selection (PRODUCT_IMAGE_E2E_* variables)`);
			process.exitCode = failed > 0 || passed + failed === 0 ? 1 : 0;
		},
		(err) => {
			console.error(
				`${name} could not run: ${redact(err instanceof Error ? err.message : String(err))}`,
			);
			console.log('0 passed, 1 failed');
			process.exitCode = 1;
		},
	);
}

module.exports = {
	preparePackageAndN8n,
	prepareUserFolder,
	makeWorkRoot,
	finishWorkRoot,
	runOnPins,
	runSuite,
};
