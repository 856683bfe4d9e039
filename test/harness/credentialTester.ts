import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, loadedPackage, NODE_TYPE } from './engine';
import { captureLogger } from './logger';

/**
 * The credential test n8n would pick, run with n8n-core's own CredentialTestContext (its real
 * `helpers.request`). n8n prefers a credential's declarative `test` to a node's `testedBy`, so a
 * declarative test appearing again would be a failure here, not a silently different code path.
 * The real-n8n suite (test/e2e/credential-test.js) runs the same cases through n8n's REST API.
 */
export async function testCredential(
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	captureLogger();
	const { nodeTypes, credentialTypes } = await loadedPackage();
	if (credentialTypes[CREDENTIAL_TYPE].test)
		throw new Error(`${CREDENTIAL_TYPE} has a declarative test: n8n would run that instead`);
	const nodeType = nodeTypes.getByNameAndVersion(NODE_TYPE) as INodeType;
	const entry = nodeType.description.credentials?.find((c) => c.name === CREDENTIAL_TYPE);
	if (typeof entry?.testedBy !== 'string')
		throw new Error(`the node does not name a test for ${CREDENTIAL_TYPE}`);
	const test = nodeType.methods?.credentialTest?.[entry.testedBy];
	if (!test) throw new Error(`methods.credentialTest has no ${entry.testedBy}`);
	return await test.call(new CredentialTestContext(), {
		id: 'cred-1',
		name: 'Product Image account',
		type: CREDENTIAL_TYPE,
		data,
	});
}
