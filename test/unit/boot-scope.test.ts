import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// test/e2e/lib/boot-scope.js decides what each headless `n8n execute` starts: which node types n8n
// loads and whether its task runner starts. Checked here on a made-up install laid out as n8n's.

// eslint-disable-next-line @typescript-eslint/no-require-imports
const scope = require('../e2e/lib/boot-scope') as {
	includedNodes(workflows: unknown[]): string;
	runnerEnv(install: { dir: string }, workflow: unknown): Record<string, string>;
};

const OWN = 'n8n-nodes-product-image.productImage';
const workflow = (...types: string[]) => ({ nodes: types.map((type) => ({ type })) });

let dir: string;

/** An n8n install whose Code node hands its work to the runner from a file below its folder. */
function install(runnersConfig: string) {
	const modules = path.join(dir, 'node_modules');
	const configs = path.join(modules, '@n8n', 'config', 'dist', 'configs');
	mkdirSync(configs, { recursive: true });
	writeFileSync(path.join(configs, 'runners.config.js'), runnersConfig);
	const base = path.join(modules, 'n8n-nodes-base', 'dist');
	mkdirSync(path.join(base, 'known'), { recursive: true });
	writeFileSync(
		path.join(base, 'known', 'nodes.json'),
		JSON.stringify({
			code: { className: 'Code', sourcePath: 'dist/nodes/Code/Code.node.js' },
			set: { className: 'Set', sourcePath: 'dist/nodes/Set/Set.node.js' },
		}),
	);
	for (const [folder, files] of Object.entries({
		Code: { 'Code.node.js': 'class Code {}', 'sandbox/JsSandbox.js': 'this.startJob("js")' },
		Set: { 'Set.node.js': 'class Set {}', 'v2/SetV2.node.js': 'class SetV2 {}' },
	})) {
		for (const [file, text] of Object.entries(files)) {
			const target = path.join(base, 'nodes', folder, file);
			mkdirSync(path.dirname(target), { recursive: true });
			writeFileSync(target, text);
		}
	}
	return { dir };
}

const ALWAYS_ON = "Env)('N8N_RUNNERS_MODE', runnerModeSchema)";
const SWITCHED = "Env)('N8N_RUNNERS_ENABLED')";

beforeEach(() => {
	dir = mkdtempSync(path.join(tmpdir(), 'boot-scope-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the node types n8n loads', () => {
	it("are every type the workflows hold, once each, and the package's own node", () => {
		const included = JSON.parse(
			scope.includedNodes([
				workflow('n8n-nodes-base.set', 'n8n-nodes-base.manualTrigger'),
				workflow('n8n-nodes-base.set', '@n8n/n8n-nodes-langchain.agent'),
			]),
		);
		expect(included).toEqual([
			'@n8n/n8n-nodes-langchain.agent',
			'n8n-nodes-base.manualTrigger',
			'n8n-nodes-base.set',
			OWN,
		]);
	});

	it("hold the package's own node when no workflow names it", () => {
		expect(JSON.parse(scope.includedNodes([workflow()]))).toEqual([OWN]);
	});
});

describe('the task runner', () => {
	it('starts for a workflow with a node whose folder calls it', () => {
		const n8n = install(ALWAYS_ON);
		expect(scope.runnerEnv(n8n, workflow('n8n-nodes-base.set', 'n8n-nodes-base.code'))).toEqual({});
	});

	it("does not start for a workflow of other nodes and the package's own", () => {
		const n8n = install(ALWAYS_ON);
		expect(scope.runnerEnv(n8n, workflow('n8n-nodes-base.set', OWN))).toEqual({
			N8N_RUNNERS_MODE: 'external',
			N8N_RUNNERS_AUTH_TOKEN: expect.any(String),
		});
	});

	it('is left to n8n where its runners have an on/off switch (1.x)', () => {
		const n8n = install(`${SWITCHED}\n${ALWAYS_ON}`);
		expect(scope.runnerEnv(n8n, workflow('n8n-nodes-base.set'))).toEqual({});
	});
});
