import { redactSecrets } from '../../nodes/ProductImage/transport/errors';

// What the service echoes back passes through redactSecrets before anyone sees it. The credential's
// key is split out literally; tokens the node did not send (a proxy's, another tool's) are caught
// by their shape: after "Bearer" and in an Authorization header.

describe('the credential key is redacted from four characters up', () => {
	test('a key of exactly four characters is redacted', () => {
		expect(redactSecrets('echo: k3y9 end', ['k3y9'])).toBe('echo: [redacted] end');
	});

	test('a key of three characters is left alone: it would blank out ordinary words', () => {
		expect(redactSecrets('the cat sat', ['cat'])).toBe('the cat sat');
		expect(redactSecrets('nothing', [''])).toBe('nothing');
	});
});

describe('a bearer token the node did not send is redacted too', () => {
	test('after one space', () => {
		expect(redactSecrets('upstream said: Bearer proxy-token-123 was refused', [])).toBe(
			'upstream said: Bearer [redacted] was refused',
		);
	});

	test('after two spaces', () => {
		expect(redactSecrets('{"echo":"bearer  proxy-token-123"}', [])).toBe(
			'{"echo":"bearer  [redacted]"}',
		);
	});
});

describe('an Authorization header with another scheme or token is redacted', () => {
	test.each([
		['Authorization: Basic dXNlcjpwYXNz', 'Authorization: [redacted]'],
		['{"authorization":"Token abc.def"}', '{"authorization":"[redacted]"}'],
		['authorization=Token abc.def', 'authorization=[redacted]'],
		['Authorization : Token abc.def', 'Authorization : [redacted]'],
		['Authorization:  Token abc.def', 'Authorization:  [redacted]'],
	])('%s', (echoed, shown) => {
		expect(redactSecrets(echoed, [])).toBe(shown);
	});
});
