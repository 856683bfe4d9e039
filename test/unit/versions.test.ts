import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { coveringResolution, htmlToText } from '../../nodes/ProductImage/helpers/aPlus';
import { pixelSizeOf } from '../../nodes/ProductImage/helpers/download';
import type { PanelContract } from '../harness/panelContract';
import { panelContract, shownParameters } from '../harness/panelContract';

const description = new ProductImage().description;
const V1_WORKFLOWS = path.join(__dirname, '..', 'e2e', 'fixtures', 'v1-workflows');
const V2_WORKFLOWS = path.join(__dirname, '..', 'e2e', 'fixtures', 'v2-workflows');

const shown = (typeVersion: number, values: INodeParameters): INodeProperties[] =>
	shownParameters(description, typeVersion, values);

function shownNamed(
	typeVersion: number,
	values: INodeParameters,
	name: string,
): INodeProperties | undefined {
	const matches = shown(typeVersion, values).filter((property) => property.name === name);
	expect(matches.length).toBeLessThanOrEqual(1);
	return matches[0];
}

const generate = { resource: 'image', operation: 'generateAndWait' };

test('new nodes get version 3; versions 1 and 2 stay loadable', () => {
	expect(description.version).toEqual([1, 2, 3]);
	expect(description.defaultVersion).toBe(3);
});

test('version 1 shows the free-text fields it saved; version 2 shows lists with Other', () => {
	for (const name of ['size', 'resolution', 'outputLanguage', 'platform']) {
		expect(shownNamed(1, generate, name)?.type).toBe('string');
		const listed = shownNamed(2, generate, name);
		expect(listed?.type).toBe('options');
		const values = (listed?.options as INodePropertyOptions[]).map((option) => option.value);
		expect(values).toContain('custom');
		expect(listed?.placeholder).toBeUndefined();
	}
	expect(shownNamed(1, generate, 'generationSource')).toBeUndefined();
	expect(shownNamed(2, generate, 'generationSource')?.default).toBe('define');
	expect(shownNamed(2, { ...generate, size: 'custom' }, 'customSize')?.type).toBe('string');
	expect(shownNamed(2, generate, 'customSize')).toBeUndefined();
});

test('empty reads as Service Default in the lists where the service may choose', () => {
	for (const [values, name] of [
		[generate, 'platform'],
		[generate, 'outputLanguage'],
		[{ resource: 'aPlusPlan', operation: 'create' }, 'market'],
		[{ resource: 'aPlusPlan', operation: 'create' }, 'language'],
	] as const) {
		const listed = shownNamed(2, values, name);
		expect(listed?.default).toBe('');
		expect((listed?.options as INodePropertyOptions[])[0]).toMatchObject({
			name: 'Service Default',
			value: '',
		});
	}
});

test('one casing rule for languages: output language lowercase, plan language language-REGION', () => {
	const output = (shownNamed(2, generate, 'outputLanguage')?.options as INodePropertyOptions[]).map(
		(option) => String(option.value),
	);
	const plan = (
		shownNamed(2, { resource: 'aPlusPlan', operation: 'create' }, 'language')
			?.options as INodePropertyOptions[]
	).map((option) => String(option.value));
	expect(output).toContain('zh-cn');
	expect(plan).toContain('zh-CN');
	for (const value of output.filter((v) => v && v !== 'custom'))
		expect(value).toBe(value.toLowerCase());
	for (const value of plan.filter((v) => v && v !== 'custom'))
		expect(value).toMatch(/^[a-z]{2}-[A-Z]{2}$/);
});

test('with the module source, Prompt, Size and Resolution are not shown', () => {
	const values = { ...generate, generationSource: 'aPlusModule' };
	for (const name of ['prompt', 'size', 'resolution'])
		expect(shownNamed(2, values, name)).toBeUndefined();
	expect(shownNamed(2, values, 'moduleSourceNotice')?.type).toBe('notice');
});

/** Every Product Image node of the saved workflows in a folder. */
function savedNodes(folder: string): INode[] {
	return readdirSync(folder)
		.filter((file) => file.endsWith('.json'))
		.flatMap(
			(file) =>
				(JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as { nodes: INode[] }).nodes,
		)
		.filter((node) => node.type === 'n8n-nodes-product-image.productImage');
}

test.each([
	['the 0.2.0 examples (version 1)', V1_WORKFLOWS, [1]],
	['the examples saved before version 3', V2_WORKFLOWS, [1, 2]],
])(
	'every Product Image node of %s loads with every parameter it saved, unchanged',
	(_saved, folder, versions) => {
		const nodes = savedNodes(folder);
		expect(nodes.length).toBeGreaterThan(10);
		expect([...new Set(nodes.map((node) => node.typeVersion))].sort()).toEqual(versions);
		for (const node of nodes) {
			const loaded = NodeHelpers.getNodeParameters(
				description.properties,
				node.parameters,
				true,
				false,
				node,
				description,
			);
			expect(loaded).toMatchObject(node.parameters);
		}
	},
);

test("the nodes panel's actions say what the Operation list says", () => {
	const operations = description.properties.filter((property) => property.name === 'operation');
	for (const property of operations) {
		for (const option of property.options as INodePropertyOptions[]) {
			const name = option.name.toLowerCase();
			const action = String(option.action).toLowerCase();
			// The same verb first, and whether it waits said in both.
			expect(action.split(' ')[0]).toBe(name.split(' ')[0]);
			expect(action.includes('wait')).toBe(name.includes('wait'));
			expect(action.includes('without') || action.includes(' no ')).toBe(
				name.includes('(no wait)'),
			);
		}
	}
});

test('image headers give the pixel size: PNG, JPEG, WebP (lossy, lossless, extended)', () => {
	const png = Buffer.alloc(24);
	png.writeUInt32BE(0x89504e47, 0);
	png.write('IHDR', 12, 'latin1');
	png.writeUInt32BE(1464, 16);
	png.writeUInt32BE(600, 20);
	expect(pixelSizeOf(png)).toEqual({ width: 1464, height: 600 });

	// SOI, an APP0 segment of 16 bytes, then SOF0 with height 600 and width 970.
	const jpeg = Buffer.from([
		0xff,
		0xd8,
		0xff,
		0xe0,
		0x00,
		0x10,
		...new Array(14).fill(0),
		0xff,
		0xc0,
		0x00,
		0x11,
		0x08,
		0x02,
		0x58,
		0x03,
		0xca,
		0x03,
	]);
	expect(pixelSizeOf(jpeg)).toEqual({ width: 970, height: 600 });
	expect(pixelSizeOf(jpeg.subarray(0, 10))).toBeUndefined();

	const riff = (chunk: string, body: number[]) =>
		Buffer.from([
			...Buffer.from('RIFF'),
			0,
			0,
			0,
			0,
			...Buffer.from('WEBP'),
			...Buffer.from(chunk),
			0,
			0,
			0,
			0,
			...body,
		]);
	const extended = riff('VP8X', [0, 0, 0, 0, ...[219, 0, 0], ...[219, 0, 0]]);
	expect(pixelSizeOf(extended)).toEqual({ width: 220, height: 220 });
	const lossless = riff('VP8L', [
		0x2f,
		(463 - 1) & 0xff,
		(((463 - 1) >> 8) & 0x3f) | (((625 - 1) & 0x3) << 6),
		((625 - 1) >> 2) & 0xff,
		((625 - 1) >> 10) & 0xf,
		0,
		0,
		0,
		0,
		0,
	]);
	expect(pixelSizeOf(lossless)).toEqual({ width: 463, height: 625 });
	const lossy = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x58, 0x02, 0xc2, 0x01]);
	expect(pixelSizeOf(lossy)).toEqual({ width: 600, height: 450 });
	expect(pixelSizeOf(Buffer.from('GIF89a'))).toBeUndefined();
});

test('the covering resolution is the smallest label whose long side reaches the module', () => {
	expect(coveringResolution(1464, 600)).toBe('2k');
	expect(coveringResolution(970, 600)).toBe('1k');
	expect(coveringResolution(1024, 1024)).toBe('1k');
	expect(coveringResolution(1025, 10)).toBe('2k');
	expect(coveringResolution(5000, 10)).toBeUndefined();
});

test("a store's HTML becomes text; text without tags is kept as it came", () => {
	expect(
		htmlToText(
			'<h2>Trail</h2><p>Steel&nbsp;bottle<br>750 ml</p><ul><li>Cold</li><li>Leak-proof</li></ul><script>x()</script>',
		),
	).toBe('Trail\nSteel bottle\n750 ml\n\n- Cold\n- Leak-proof');
	expect(htmlToText('Fits 3 < 4 cups & more')).toBe('Fits 3 < 4 cups & more');
});

test('from an A+ module item, empty fields say they take the plan’s values; defined below they keep their own words', () => {
	const fromModule = { ...generate, generationSource: 'aPlusModule' };
	const imageUrls = shownNamed(2, fromModule, 'imageUrls');
	expect(imageUrls?.description).toContain('Empty: the photos the A+ plan was made from');
	expect(shownNamed(2, generate, 'imageUrls')?.placeholder).toContain(
		'https://example.com/image.png',
	);
	expect(shownNamed(1, generate, 'imageUrls')?.placeholder).toContain(
		'https://example.com/image.png',
	);
	for (const name of ['platform', 'outputLanguage']) {
		const fromPlan = shownNamed(2, fromModule, name);
		expect(fromPlan?.default).toBe('');
		expect((fromPlan?.options as INodePropertyOptions[])[0]).toMatchObject({
			name: 'From the A+ Plan',
			value: '',
		});
		expect((shownNamed(2, generate, name)?.options as INodePropertyOptions[])[0]).toMatchObject({
			name: 'Service Default',
		});
		expect(
			shownNamed(
				2,
				{ ...fromModule, [name]: 'custom' },
				`custom${name.charAt(0).toUpperCase()}${name.slice(1)}`,
			)?.type,
		).toBe('string');
	}
});

test('versions 1 and 2 show the parameters, defaults, list values and options they were saved with', () => {
	// Taken from the description before version 3 existed (test/harness/panelContract.ts).
	const saved = JSON.parse(
		readFileSync(path.join(__dirname, 'fixtures', 'panel-contract-v1-v2.json'), 'utf8'),
	) as Record<string, PanelContract>;
	expect(panelContract(description, 1)).toEqual(saved['1']);
	expect(panelContract(description, 2)).toEqual(saved['2']);
});

const operations = {
	generateAndWait: generate,
	generate: { resource: 'image', operation: 'generate' },
	analyze: { resource: 'analysis', operation: 'analyze' },
	create: { resource: 'aPlusPlan', operation: 'create' },
};

test('version 3 asks once where the images come from: Images From shows the fields it names', () => {
	for (const [operation, values] of Object.entries(operations)) {
		const source = shownNamed(3, values, 'imageSource');
		expect(source?.default).toBe('urls');
		expect(
			(source?.options as INodePropertyOptions[]).map((option) => option.value).sort(),
		).toEqual(['binary', 'both', 'urls']);
		expect(shownNamed(3, values, 'imageUrls')).toBeDefined();
		expect(shownNamed(3, values, 'inputBinaryFields')).toBeUndefined();
		const binary = { ...values, imageSource: 'binary' };
		expect(shownNamed(3, binary, 'imageUrls')).toBeUndefined();
		expect(shownNamed(3, binary, 'inputBinaryFields')).toBeDefined();
		const both = { ...values, imageSource: 'both' };
		expect(shownNamed(3, both, 'imageUrls')?.required).toBeFalsy();
		expect(shownNamed(3, both, 'inputBinaryFields')?.required).toBeFalsy();
		// Analyze and A+ Plan need an image: the one field chosen is required.
		const needsImage = operation === 'analyze' || operation === 'create';
		expect(Boolean(shownNamed(3, values, 'imageUrls')?.required)).toBe(needsImage);
		expect(Boolean(shownNamed(3, binary, 'inputBinaryFields')?.required)).toBe(needsImage);
		expect(shownNamed(2, values, 'imageSource')).toBeUndefined();
		expect(shownNamed(2, values, 'inputBinaryFields')).toBeDefined();
	}
	const fromModule = { ...generate, generationSource: 'aPlusModule' };
	expect(shownNamed(3, fromModule, 'imageUrls')?.description).toContain(
		'Empty: the photos the A+ plan was made from',
	);
});

function optionsOf(typeVersion: number, values: INodeParameters): Record<string, unknown> {
	const options = shownNamed(typeVersion, values, 'options');
	return Object.fromEntries(
		((options?.options ?? []) as INodeProperties[]).map((option) => [option.name, option.default]),
	);
}

test('version 3 shows the defaults it uses; version 2 keeps the ones it was saved with', () => {
	const wait = { resource: 'task', operation: 'wait' };
	expect(optionsOf(3, generate)).toMatchObject({
		initialDelay: 5,
		includeOtherFields: true,
		maxGenerations: 0,
	});
	expect(optionsOf(3, operations.generate)).toMatchObject({
		includeOtherFields: true,
		maxGenerations: 0,
	});
	expect(optionsOf(3, wait)).toMatchObject({ initialDelay: 0 });
	expect(optionsOf(2, generate)).toMatchObject({
		initialDelay: 5,
		includeOtherFields: false,
		maxGenerations: 10,
	});
	expect(optionsOf(2, wait)).toMatchObject({ initialDelay: 5 });
});

const MOVED = new Set(
	[
		'productName',
		'sellingPoints',
		'productDescription',
		'platform',
		'outputLanguage',
		'market',
		'language',
	].flatMap((name) => [name, `custom${name.charAt(0).toUpperCase()}${name.slice(1)}`]),
);

test('version 3 keeps every other parameter, default and list value of version 2; optional fields move into Options', () => {
	const v2 = panelContract(description, 2);
	const v3 = panelContract(description, 3);
	const changed = (options: Record<string, { default: unknown }>) => {
		for (const [name, value] of [
			['includeOtherFields', true],
			['maxGenerations', 0],
		] as const)
			if (options[name]) options[name] = { ...options[name], default: value };
	};
	for (const [key, parameters] of Object.entries(v2)) {
		const expected = JSON.parse(JSON.stringify(parameters)) as Record<
			string,
			{ default: unknown; options?: Record<string, { default: unknown }> }
		>;
		const shown = JSON.parse(JSON.stringify(v3[key])) as typeof expected;
		// The Output choice is new in version 3 (tested with the output items).
		delete shown.output;
		delete shown.outputFields;
		// The optional fields moved into Options, each as version 2 shows it at the top.
		for (const name of Object.keys(expected).filter((name) => MOVED.has(name))) {
			expect([key, name, shown.options?.options?.[name]]).toEqual([key, name, expected[name]]);
			delete expected[name];
		}
		for (const name of Object.keys(shown.options?.options ?? {}))
			if (MOVED.has(name)) delete shown.options?.options?.[name];
		if (shown.imageSource) {
			delete shown.imageSource;
			delete expected[key.endsWith('/imageSource') ? 'imageUrls' : 'inputBinaryFields'];
		}
		if (expected.options?.options) changed(expected.options.options);
		if (key.startsWith('task/wait') && expected.options?.options)
			expected.options.options.initialDelay.default = 0;
		// New in version 3: Analyze and A+ Plan hand the product's fields on too.
		if (/^(analysis|aPlusPlan)\//.test(key) && expected.options?.options)
			expected.options.options.includeOtherFields = { type: 'boolean', default: true } as {
				default: unknown;
			};
		expect([key, shown]).toEqual([key, expected]);
	}
});
