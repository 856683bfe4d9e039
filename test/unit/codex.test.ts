import { readFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';

test("the codex names the node version a new node gets, as n8n's codex page asks", () => {
	// "This should have the same value as the version parameter in your main node file", written
	// as "1.0" is: the version parameter holds every version, the default is the one a node gets.
	const codex = JSON.parse(
		readFileSync(
			path.join(__dirname, '..', '..', 'nodes', 'ProductImage', 'ProductImage.node.json'),
			'utf8',
		),
	) as { nodeVersion: string; codexVersion: string };
	expect(codex.nodeVersion).toBe(`${CURRENT}.0`);
	expect(codex.codexVersion).toBe('1.0');
});
