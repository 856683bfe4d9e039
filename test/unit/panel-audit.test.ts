import type { INodeProperties } from 'n8n-workflow';

import { ProductImageApi } from '../../credentials/ProductImageApi.credentials';
import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { NEXT_STEP } from '../../nodes/ProductImage/helpers/task';

// What an audit of the current version's panel against n8n's UX pages found, each kept closed:
// links that leave the editor, words an operator would have to guess, a value quoted without what
// it means, files promised where an operation outputs none, a time limit that does not say what
// it waits for.

const current = new ProductImage().description.properties.filter(
	(property) => JSON.stringify(property.displayOptions?.show?.['@version']) !== '[1]',
);

/** Every text of the properties, entries and groups under them, with the parameter it belongs to. */
function texts(properties: INodeProperties[], where = ''): Array<[string, string]> {
	return properties.flatMap((property) => {
		const here = `${where}${property.name}`;
		const own = [property.displayName, property.description, property.hint, property.placeholder];
		const nested = (property.options ?? []) as unknown as Array<Record<string, unknown>>;
		return [
			...own.filter((text): text is string => typeof text === 'string').map((t) => [here, t]),
			...nested.flatMap((entry) => [
				...[entry.description]
					.filter((text): text is string => typeof text === 'string')
					.map((t): [string, string] => [`${here}.${String(entry.name)}`, t]),
				...('values' in entry || 'type' in entry
					? texts((entry.values ?? [entry]) as INodeProperties[], `${here}.`)
					: []),
			]),
		] as Array<[string, string]>;
	});
}

const panel = [...texts(current), ...texts(new ProductImageApi().properties, 'credential.')];

test('a link in a panel text opens in a new tab', () => {
	const links = panel.flatMap(([where, text]) =>
		[...text.matchAll(/<a\b[^>]*>/g)].map((match) => `${where}: ${match[0]}`),
	);
	expect(links.length).toBeGreaterThan(0);
	expect(links.filter((link) => !link.includes('target="_blank"'))).toEqual([]);
});

test('no words an operator would have to guess: "read from the first item", "as a JSON object"', () => {
	expect(panel.filter(([, text]) => /read from the first item|JSON object/i.test(text))).toEqual(
		[],
	);
});

test('one spelling of a size (1464x600, as target_size writes it) and of a language code (cs-CZ)', () => {
	expect(panel.filter(([, text]) => /\d\s?×\s?\d|\b[a-z]{2}-[a-z]{2}\b/.test(text))).toEqual([]);
});

test("a text that quotes a value of 'outcome' says what it means", () => {
	const quoting = panel.filter(([, text]) =>
		Object.values(NEXT_STEP).some((value) => text.includes(`'${value}'`)),
	);
	expect(quoting.length).toBeGreaterThan(0);
	for (const [, text] of quoting)
		for (const value of Object.values(NEXT_STEP).filter((v) => text.includes(`'${v}'`)))
			expect(text).toMatch(new RegExp(`'${value}' when `));
});

test("Output's tooltip promises files only where the operation's items carry them", () => {
	const outputs = current.filter((property) => property.name === 'output');
	const promises = (property: INodeProperties) => /\bfiles?\b/i.test(JSON.stringify(property));
	const byOperation = Object.fromEntries(
		outputs.map((property) => [
			String(property.displayOptions?.show?.operation),
			promises(property),
		]),
	);
	expect(byOperation).toEqual({ generateAndWait: true, wait: true, get: false, create: false });
});

test("'Acceptance Timeout' says what it waits for, apart from 'Max Wait Time'", () => {
	const [, text] = panel.find(([where]) => where.endsWith('submitTimeout')) ?? ['', ''];
	expect(text).toMatch(/took each generation/);
	expect(text).toContain("'Max Wait Time'");
});
