import { quoteReply } from '../../nodes/ProductImage/transport/request';

// What the service said about a result the node could not read is handed to the user: without the
// key, and short enough to read in an error.

const key = 'sk-live-test-9f8e7d6c5b4a3210';

test('the key is taken out of a quoted reply, wherever the service echoed it', () => {
	const quoted = quoteReply(
		{ images: [{ storage_key: 'internal/a.png', signed_with: key, headers: `Bearer ${key}` }] },
		[key],
	);
	expect(quoted).not.toContain(key);
	expect(quoted).toContain('"storage_key":"internal/a.png"');
	expect(quoted).toContain('[redacted]');
});

test('a long reply is cut at 2,000 characters and says how long it was', () => {
	const reply = { images: ['x'.repeat(5000)] };
	const quoted = quoteReply(reply, [key]);
	expect(quoted).toBe(`${JSON.stringify(reply).slice(0, 1999)}… (5015 characters in all)`);
});

test('a reply of exactly 2,000 characters is quoted whole, one more is cut', () => {
	expect(quoteReply('y'.repeat(2000), [key])).toBe('y'.repeat(2000));
	expect(quoteReply('y'.repeat(2001), [key])).toBe(`${'y'.repeat(1999)}… (2001 characters in all)`);
});
