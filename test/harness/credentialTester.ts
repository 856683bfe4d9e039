import { ExecuteContext, ExecutionLifecycleHooks, RoutingNode } from 'n8n-core';
import type { ICredentialDataDecryptedObject, INode, INodeType } from 'n8n-workflow';
import { createRunExecutionData, Workflow } from 'n8n-workflow';

import { TestCredentialsHelper } from './credentialsHelper';
import { CREDENTIAL_TYPE, loadedPackage, testAdditionalData } from './engine';
import { captureLogger } from './logger';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs the credential's declarative `test` the way n8n's credentials tester does: the test request
 * becomes the routing of a throw-away node executed by n8n-core's RoutingNode; an error reply is
 * matched against the `responseCode` rules, any other non-2xx error fails, and a reply the request
 * accepted is matched against the `responseSuccessBody` rules.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
	options: { acceptEveryStatus?: boolean } = {},
): Promise<CredentialTestResult> {
	captureLogger();
	const { credentialTypes } = await loadedPackage();
	const credentialType = credentialTypes[CREDENTIAL_TYPE];
	const declared = credentialType.test!;
	// n8n 1.x's request helper reads any `ignoreHttpStatusErrors` as "accept every status".
	const testRequest = options.acceptEveryStatus
		? { ...declared, request: { ...declared.request, ignoreHttpStatusErrors: true } }
		: declared;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'credential-test',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Product Image account' } },
	};
	const nodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'credential-test',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			credentials: [{ name: CREDENTIAL_TYPE, required: true }],
			properties: [
				{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' },
			],
		},
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		},
	});
	const credentialsHelper = new TestCredentialsHelper(credentialTypes, { [CREDENTIAL_TYPE]: data });
	const hooks = new ExecutionLifecycleHooks('internal', 'credential-test', {} as never);
	const additionalData = testAdditionalData(hooks, credentialsHelper);
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const routingNode = new RoutingNode(context, nodeType, {
		id: 'cred-1',
		name: 'Product Image account',
		type: CREDENTIAL_TYPE,
		data,
	});
	let response: Awaited<ReturnType<RoutingNode['runNode']>>;
	try {
		response = await routingNode.runNode();
	} catch (error) {
		const cause = (error as { cause?: { response?: { status: number; statusText?: string }; code?: string } }).cause;
		if (cause?.response) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === cause.response.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (cause.response.status < 199 || cause.response.status > 299) {
				return { status: 'Error', message: cause.response.statusText || `Received HTTP status code: ${cause.response.status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: (error as Error).message };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const json = response?.[0]?.[0]?.json as Record<string, unknown> | undefined;
		if (json?.[rule.properties.key] === rule.properties.value) return { status: 'Error', message: rule.properties.message };
	}
	return { status: 'OK', message: 'Connection successful!' };
}
