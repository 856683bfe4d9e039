import { Container } from '@n8n/di';
import { Logger } from '@n8n/backend-common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
	BinaryDataConfig,
	BinaryDataService,
	ExecutionLifecycleHooks,
	PackageDirectoryLoader,
	WorkflowExecute,
} from 'n8n-core';
import type {
	IBinaryData,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunExecutionData,
	ITaskData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import type { WorkflowSettingsBinaryMode } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import { convertBinaryData } from 'n8n-core/dist/utils/convert-binary-data';

import { TestCredentialsHelper } from './credentialsHelper';
import { clientEventMark } from './clientRequests';
import { captureLogger, type LogLine } from './logger';

const PACKAGE_DIR = path.resolve(__dirname, '..', '..');
export const NODE_TYPE = 'n8n-nodes-product-image.productImage';
export const CREDENTIAL_TYPE = 'productImageApi';

interface LoadedPackage {
	nodeTypes: INodeTypes;
	credentialTypes: Record<string, ICredentialType>;
}

let loading: Promise<LoadedPackage> | undefined;

/** Loads the built package from dist/ with n8n's own loader, as n8n loads a community package. */
async function loadPackage(): Promise<LoadedPackage> {
	const loader = new PackageDirectoryLoader(PACKAGE_DIR);
	await loader.loadAll();
	const byName: Record<string, INodeType | IVersionedNodeType> = {};
	for (const [name, data] of Object.entries(loader.nodeTypes)) {
		byName[`${loader.packageName}.${name}`] = data.type;
	}
	const credentialTypes: Record<string, ICredentialType> = {};
	for (const [name, data] of Object.entries(loader.credentialTypes))
		credentialTypes[name] = data.type;
	const nodeTypes: INodeTypes = {
		getByName: (type) => byName[type],
		getByNameAndVersion: (type, version) => {
			const found = byName[type];
			if (!found) throw new Error(`Unknown node type ${type}`);
			return 'nodeVersions' in found ? found.getNodeType(version) : found;
		},
		getKnownTypes: () => ({}),
	};
	return { nodeTypes, credentialTypes };
}

export async function loadedPackage(): Promise<LoadedPackage> {
	loading ??= loadPackage();
	return await loading;
}

type BinaryMode = 'memory' | 'filesystem';

let binaryStorage: string | undefined;

function removeBinaryStorage(): void {
	if (binaryStorage) rmSync(binaryStorage, { recursive: true, force: true });
	binaryStorage = undefined;
}

// jest loads this harness once per test file, so each file has its own store: it goes with the
// file, or every run would leave its files in the temporary folder. A benchmark's scenario process
// (bench/scenario.js) loads it outside jest, and its store goes when that process exits.
if (typeof afterAll === 'function') afterAll(removeBinaryStorage);
else process.on('exit', removeBinaryStorage);

/**
 * n8n keeps binaries in memory (base64 on the item) or, in filesystem and S3 modes, in a store
 * addressed by id. Tests choose per run.
 */
async function useBinaryMode(mode: BinaryMode): Promise<BinaryDataService> {
	const logger = Container.get(Logger);
	const errorReporter = { error: () => {}, warn: () => {}, info: () => {} };
	const config = Object.assign(Object.create(BinaryDataConfig.prototype) as BinaryDataConfig, {
		mode: 'filesystem',
		availableModes: ['filesystem'],
		localStoragePath: (binaryStorage ??= mkdtempSync(path.join(tmpdir(), 'product-image-binary-'))),
		signingSecret: 'test-signing-secret',
		dbMaxFileSize: 512,
	});
	const service = new BinaryDataService(config, errorReporter as never, logger);
	if (mode === 'filesystem') await service.init();
	Container.set(BinaryDataService, service);
	// The engine's combined binary mode reads the storage mode here: memory storage is 'default'.
	Container.set(
		BinaryDataConfig,
		Object.assign(Object.create(BinaryDataConfig.prototype) as BinaryDataConfig, config, {
			mode: mode === 'filesystem' ? 'filesystem' : 'default',
		}),
	);
	return service;
}

/** The services n8n's server would hand an execution; here only what the node's path uses. */
function testAdditionalData(
	hooks: ExecutionLifecycleHooks,
	credentialsHelper: TestCredentialsHelper,
): IWorkflowExecuteAdditionalData {
	return {
		hooks,
		credentialsHelper,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of these tests');
		},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'test-user',
		variables: {},
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		startRunnerTask: async () => {
			throw new Error('Task runners are not part of these tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export interface NodeSpec {
	name?: string;
	parameters: INode['parameters'];
	continueOnFail?: boolean;
	/** The node version the workflow saved (default: the node's current version). */
	typeVersion?: number;
}

export interface RunSpec {
	/** Nodes in a chain: the first receives `input`, each next one the previous one's output. */
	nodes: NodeSpec[];
	input?: INodeExecutionData[];
	credentials: ICredentialDataDecryptedObject;
	binaryMode?: BinaryMode;
	/**
	 * The workflow setting Binary Mode (n8n 2.x): with 'combined' and filesystem storage the engine
	 * moves each node's output files into the item's JSON under `_files`; `input` is converted the
	 * same way, as if a previous node had output it.
	 */
	workflowBinaryMode?: WorkflowSettingsBinaryMode;
	/** Cancels the execution after this many ms, as the Stop button does. */
	cancelAfterMs?: number;
	/** Cancels the execution once this settles (a state the test waits for), as the Stop button does. */
	cancelWhen?: Promise<unknown>;
}

export interface RunResult {
	run: IRun;
	/** Output items of each node, by node name. */
	outputs: Record<string, INodeExecutionData[]>;
	/** Output of the last node in the chain. */
	items: INodeExecutionData[];
	/** The items the first node received (`input`, converted in combined binary mode). */
	input: INodeExecutionData[];
	error?: Error & { description?: string; httpCode?: string; context?: Record<string, unknown> };
	logs: LogLine[];
	binaryData: BinaryDataService;
	durationMs: number;
	/** With a cancel: the client events (clientRequests.ts) seen before it. */
	cancelMark?: number;
	/** With a cancel: how long the run went on after it. */
	endedAfterCancelMs?: number;
}

/** The version n8n gives a node newly added to a workflow, as the package declares it. */
function currentVersionOf(nodeTypes: INodeTypes): number {
	const { defaultVersion, version } = nodeTypes.getByNameAndVersion(NODE_TYPE).description;
	return defaultVersion ?? Math.max(...[version].flat());
}

/**
 * Executes a chain of Product Image nodes with n8n-core's real engine: WorkflowExecute, the real
 * execution contexts and request/binary helpers, lifecycle hooks, Continue On Fail handling.
 * Only the credential store is in memory.
 */
export async function runWorkflow(spec: RunSpec): Promise<RunResult> {
	const logs = captureLogger();
	const { nodeTypes, credentialTypes } = await loadedPackage();
	const binaryData = await useBinaryMode(spec.binaryMode ?? 'memory');
	const currentVersion = currentVersionOf(nodeTypes);
	const nodes: INode[] = spec.nodes.map((node, index) => ({
		id: `node-${index}`,
		name: node.name ?? (index === 0 ? 'Product Image' : `Product Image ${index}`),
		type: NODE_TYPE,
		typeVersion: node.typeVersion ?? currentVersion,
		position: [index * 200, 0],
		parameters: node.parameters,
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Product Image account' } },
		...(node.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	}));
	const connections: IConnections = {};
	for (let index = 0; index < nodes.length - 1; index++) {
		connections[nodes[index].name] = {
			main: [[{ node: nodes[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Product Image test',
		nodes,
		connections,
		active: false,
		nodeTypes,
		settings: {
			executionOrder: 'v1',
			...(spec.workflowBinaryMode ? { binaryMode: spec.workflowBinaryMode } : {}),
		},
	});

	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
		name: 'Product Image test',
		nodes,
		connections,
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		activeVersionId: null,
	} as never);
	let resolveFinished: (run: IRun) => void = () => {};
	const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));

	const credentialsHelper = new TestCredentialsHelper(credentialTypes, {
		[CREDENTIAL_TYPE]: spec.credentials,
	});
	const additionalData = testAdditionalData(hooks, credentialsHelper);
	additionalData.executionId = 'test-execution';
	const converted = await convertBinaryData(
		'test-workflow',
		'test-execution',
		{ data: [spec.input ?? [{ json: {} }]] },
		spec.workflowBinaryMode,
	);
	const input = converted.data?.[0] ?? [];

	const runExecutionData: IRunExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: nodes[0],
					data: { main: [input] },
					source: null,
				},
			],
		},
	});

	const started = Date.now();
	const execution = new WorkflowExecute(
		additionalData,
		'manual',
		runExecutionData,
	).processRunExecutionData(workflow);
	let cancelMark: number | undefined;
	let cancelledAt: number | undefined;
	const cancelAt =
		spec.cancelWhen ??
		(spec.cancelAfterMs === undefined
			? undefined
			: new Promise((resolve) => setTimeout(resolve, spec.cancelAfterMs)));
	void cancelAt?.then(() => {
		cancelMark = clientEventMark();
		cancelledAt = Date.now();
		execution.cancel();
	});
	let run: IRun;
	try {
		run = await execution;
	} catch {
		run = await finished;
	}
	const ended = Date.now();
	const durationMs = ended - started;
	const outputs: Record<string, INodeExecutionData[]> = {};
	for (const node of nodes) {
		const taskData: ITaskData | undefined = run.data.resultData.runData[node.name]?.[0];
		outputs[node.name] = taskData?.data?.main?.[0] ?? [];
	}
	return {
		run,
		outputs,
		items: outputs[nodes[nodes.length - 1].name],
		input,
		error: run.data.resultData.error as RunResult['error'],
		logs,
		binaryData,
		durationMs,
		cancelMark,
		endedAfterCancelMs: cancelledAt === undefined ? undefined : ended - cancelledAt,
	};
}

/**
 * A binary field of an output item: on the item, or (combined binary mode) under `_files` in its
 * JSON.
 */
function binaryField(item: INodeExecutionData, field = 'data'): IBinaryData | undefined {
	const files = item.json._files as Record<string, IBinaryData> | undefined;
	return item.binary?.[field] ?? files?.[field];
}

/** Bytes of a binary field of an output item, wherever n8n stored them. */
export async function binaryBytes(
	result: RunResult,
	item: INodeExecutionData,
	field = 'data',
): Promise<Buffer> {
	const binary = binaryField(item, field);
	if (!binary) throw new Error(`Item has no binary field ${field}`);
	return await result.binaryData.getAsBuffer(binary);
}
