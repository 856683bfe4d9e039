// Types for TypeScript tests; the implementation is foreign-origins.js.

export type ForeignKind =
	'redirect' | 'signIn' | 'badGateway' | 'website' | 'notFoundPage' | 'notFoundJson';

export interface ForeignOrigin {
	kind: ForeignKind;
	baseUrl: string;
	requests: { path: string; authorization?: string }[];
	close(): Promise<void>;
}

export function startForeignOrigin(
	kind: ForeignKind,
	options?: { redirectTo?: string },
): Promise<ForeignOrigin>;
