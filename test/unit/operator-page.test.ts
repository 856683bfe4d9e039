import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { INodePropertyOptions } from 'n8n-workflow';

import { ProductImageApi } from '../../credentials/ProductImageApi.credentials';
import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';

/**
 * What an operator meets first, held where a program can judge it: the README is an operator's
 * page (its first lines the two commands, under 300 lines, the engineering in docs/), the
 * credential names the service it connects to, and Output says which choice suits an AI agent.
 */
const README = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

test('the README starts with the two commands and stays under 300 lines', () => {
	const lines = README.split('\n');
	expect(lines.length).toBeLessThan(300);
	const firstBlock = README.slice(0, README.indexOf('```', README.indexOf('```') + 3));
	expect(firstBlock).toContain('npm run demo');
	expect(firstBlock).toContain('npm test');
});

test('the credential names the service it connects to and says where its values come from', () => {
	const texts = new ProductImageApi().properties.map((property) => property.description ?? '');
	for (const text of texts) expect(text).toContain('Product Image Generation Service');
	expect(texts.join(' ')).toContain('docs/credentials.md');
});

test('Output says which choice suits an AI agent using the node as a tool, on every operation', () => {
	const outputs = new ProductImage().description.properties.filter(
		(property) => property.name === 'output',
	);
	expect(outputs.length).toBeGreaterThan(0);
	for (const output of outputs) {
		const simplified = (output.options as INodePropertyOptions[]).find(
			(option) => option.value === 'simplified',
		);
		expect(simplified?.description).toContain('AI agent using the node as a tool');
	}
});
