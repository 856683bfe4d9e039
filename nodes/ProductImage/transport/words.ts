import { ProductImageApi } from '../../../credentials/ProductImageApi.credentials';
import { isTimeoutCode } from './errors';

// Words more than one message uses: the node's errors, the credential's Test, the operations'
// advice. Which advice a failure gets is guidance.ts.

/** n8n renders an error's title and description as HTML, where text in angle brackets vanishes. */
export const withoutAngleBrackets = (text: string) => text.replace(/</g, '‹').replace(/>/g, '›');

/** An echoed request or a page dump would bury the advice. */
const MAX_QUOTED_LENGTH = 300;

export function shortened(text: string): string {
	const oneLine = withoutAngleBrackets(text.replace(/\s+/g, ' ')).trim();
	return oneLine.length > MAX_QUOTED_LENGTH
		? `${oneLine.slice(0, MAX_QUOTED_LENGTH - 1).trimEnd()}…`
		: oneLine;
}

const credentialLabel = (name: string) =>
	new ProductImageApi().properties.find((property) => property.name === name)?.displayName ?? name;

export const BASE_URL = `'${credentialLabel('baseUrl')}'`;

/** Worded once for the node's errors and the credential test. */
export const CHECK_BASE_URL = `Check ${BASE_URL}: the URL your provider gave you, without /v1.`;
export const KEY_REJECTED = 'The service rejected the API key';
export const KEY_NOT_ALLOWED = 'The API key is not allowed to do this';
export const FULL_KEY_NEEDED = 'the service needs a full member-level key';

/** Last in a description: a detail for whoever reads the n8n log. */
export const networkCodeNote = (code?: string) => (code ? ` (network code ${code})` : '');

/** Why nothing answered, in words; the code itself is not said. */
export function unreachableReason(where: string, code: string | undefined): string {
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `The name ${where} did not resolve: check it for a typo, and this n8n's DNS.`;
	if (code === 'ECONNREFUSED')
		return `Nothing answers at ${where}: nothing listens there, or a firewall turned the connection away.`;
	if (isTimeoutCode(code)) return `${where} did not answer in time.`;
	if (code === 'ECONNRESET') return `${where} dropped the connection.`;
	return `${where} could not be reached.`;
}

export const WAIT_FOR_COMPLETION = "'Task → Wait for Completion'";

export const resumeTask = (taskId: string) =>
	`resume with ${WAIT_FOR_COMPLETION} and task ID ${taskId}`;

/** What was paid for is collected, never generated again. */
export function resumeAdvice(taskIds: string): string {
	return `Collect the images with ${WAIT_FOR_COMPLETION} and ${taskIds} instead of generating again, which would bill again.`;
}
