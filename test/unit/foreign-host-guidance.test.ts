import type { Failure } from '../../nodes/ProductImage/transport/errors';
import { describeFailure } from '../../nodes/ProductImage/transport/guidance';
import { isRetryable, isTransient } from '../../nodes/ProductImage/transport/retry';

const HOST = 'cdn.shop.test';

describe('a download from another host: the message and advice name it, never the credential', () => {
	test.each<[string, Failure, string, string]>([
		[
			'unknown name',
			{ kind: 'network', networkCode: 'ENOTFOUND' },
			`Could not reach ${HOST}`,
			`The name ${HOST} was not found: check it for a typo, and that the server n8n runs on can look names up (DNS)`,
		],
		[
			'DNS not answering',
			{ kind: 'network', networkCode: 'EAI_AGAIN' },
			`Could not reach ${HOST}`,
			`The name ${HOST} was not found: check it for a typo, and that the server n8n runs on can look names up (DNS)`,
		],
		[
			'refused',
			{ kind: 'network', networkCode: 'ECONNREFUSED' },
			`Could not reach ${HOST}`,
			`Nothing answers at ${HOST}: nothing listens there`,
		],
		[
			'timeout',
			{ kind: 'timeout', networkCode: 'ETIMEDOUT' },
			`${HOST} did not answer in time`,
			`${HOST} did not answer in time.`,
		],
		[
			'reset',
			{ kind: 'network', networkCode: 'ECONNRESET' },
			`The connection to ${HOST} broke`,
			`The connection to ${HOST} broke before the image was complete.`,
		],
		[
			'expired certificate',
			{ kind: 'network', networkCode: 'CERT_HAS_EXPIRED' },
			`Could not open a secure (https) connection to ${HOST}`,
			`${HOST} did not open a secure connection`,
		],
		[
			'TLS to plain http',
			{ kind: 'network', networkCode: 'ERR_SSL_WRONG_VERSION_NUMBER' },
			`Could not open a secure (https) connection to ${HOST}`,
			`${HOST} did not open a secure connection`,
		],
		[
			'5xx',
			{ kind: 'http', status: 503 },
			`${HOST} could not serve the image`,
			`${HOST} answered HTTP 503.`,
		],
		[
			'403',
			{ kind: 'http', status: 403 },
			`${HOST} refused the image download`,
			`${HOST} refused the download (HTTP 403).`,
		],
		[
			'web page',
			{ kind: 'http', status: 502, html: true, serviceMessage: '502 Bad Gateway' },
			`${HOST} could not serve the image`,
			`The reply said: "502 Bad Gateway". ${HOST} answered HTTP 502.`,
		],
	])('%s', (_case, failure, message, advice) => {
		const described = describeFailure({ ...failure, foreignHost: HOST }, 'download', 1);
		expect(described.message).toBe(message);
		expect(described.description).toContain(advice);
		expect(described.description).not.toContain('Base URL');
		expect(described.description).not.toContain('API key in');
	});

	test('an expired address keeps its advice wherever it lives', () => {
		const described = describeFailure(
			{ kind: 'http', status: 410, foreignHost: HOST },
			'download',
			1,
		);
		expect(described.description).toContain('The URL has expired or never existed');
	});
});

test('the same failures at the service keep pointing at the credential', () => {
	expect(
		describeFailure({ kind: 'network', networkCode: 'ECONNREFUSED' }, 'download', 3).description,
	).toBe(
		"Nothing was sent: the service could not be reached. It was tried 3 times. Check 'Base URL' in the Product Image API credential. (connection refused: ECONNREFUSED)",
	);
	expect(
		describeFailure({ kind: 'network', networkCode: 'ENOTFOUND' }, 'taskQuery', 1).message,
	).toBe('Could not reach the service');
	expect(
		describeFailure({ kind: 'http', status: 502, html: true }, 'download', 1).description,
	).toContain("Check 'Base URL'");
});

test('a TLS failure is neither retried nor a missed look', () => {
	for (const networkCode of [
		'EPROTO',
		'ERR_SSL_WRONG_VERSION_NUMBER',
		'CERT_HAS_EXPIRED',
		'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
		'DEPTH_ZERO_SELF_SIGNED_CERT',
	]) {
		const failure: Failure = { kind: 'network', networkCode };
		expect(isRetryable('read', failure)).toBe(false);
		expect(isTransient(failure)).toBe(false);
	}
	expect(isRetryable('read', { kind: 'network', networkCode: 'ECONNRESET' })).toBe(true);
});

test.each(['upload', 'submit', 'analysis', 'plan'] as const)(
	'a 404 from the %s endpoint points at a Base URL with a path of its own',
	(kind) => {
		const described = describeFailure(
			{ kind: 'http', status: 404, serviceMessage: 'No route for POST /v1/v1/open/x' },
			kind,
			1,
		);
		expect(described.description).toContain(
			"'Base URL' is the service's URL without /v1 (the node adds /v1/open/…)",
		);
		// The title already says nothing answers; n8n's credential dialog tests on Save and
		// shows no Test button.
		expect(described.description).not.toContain(described.message);
		expect(described.description).toContain('save it, which tests the connection again');
	},
);
