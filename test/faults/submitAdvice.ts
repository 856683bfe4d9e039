/**
 * A submit that may have created a task says so, says not to run the item again blindly, and
 * names a request id to give the provider; it never sends the user to the Base URL.
 */
export function expectSubmitUnsureAdvice(
	description: string | undefined,
	requestId?: RegExp,
): void {
	expect(description).toContain('may have created the task');
	expect(description).toContain('Do not run this item again blindly');
	expect(description).not.toContain('Base URL');
	expect(description).toMatch(
		requestId ?? /request id req_[0-9a-f]+|X-Request-Id header, n8n-[0-9a-f-]{36}/,
	);
}
