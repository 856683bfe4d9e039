import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { INode, INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { htmlToText } from '../../nodes/ProductImage/helpers/aPlus';
import { coveringResolution } from '../../nodes/ProductImage/v2/actions/image/readGeneration';
import { pixelSizeOf } from '../../nodes/ProductImage/helpers/download';
import { shownParameters } from '../harness/panelContract';
import { walkShown } from '../harness/panelWalk';
import { SPEC_MODULES } from '../harness/specModules';
import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';

const description = new ProductImage().description;
const V1_WORKFLOWS = path.join(__dirname, '..', 'e2e', 'fixtures', 'v1-workflows');

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

/**
 * A field at the top or, where the current version keeps optional fields, in a collection
 * (Product Details, Plan Details, Options), a list with Other inside its bundle.
 */
function shownField(
	typeVersion: number,
	values: INodeParameters,
	name: string,
): INodeProperties | undefined {
	const matches = walkShown(description, typeVersion, values).filter(
		({ property }) => property.name === name && property.type !== 'fixedCollection',
	);
	expect(matches.length).toBeLessThanOrEqual(1);
	return matches[0]?.property;
}

const generate = { resource: 'image', operation: 'generateAndWait' };

test('new nodes get the current version, 2; version 1 stays loadable', () => {
	expect(description.version).toEqual([1, 2]);
	expect(description.defaultVersion).toBe(CURRENT);
	expect(CURRENT).toBe(2);
});

test('version 1 shows the free-text fields it saved; the current version shows lists with Other', () => {
	for (const name of ['size', 'resolution', 'outputLanguage', 'platform']) {
		expect(shownNamed(1, generate, name)?.type).toBe('string');
		const listed = shownField(CURRENT, generate, name);
		expect(listed?.type).toBe('options');
		const values = (listed?.options as INodePropertyOptions[]).map((option) => option.value);
		expect(values).toContain('custom');
		expect(listed?.placeholder).toBeUndefined();
	}
	expect(shownNamed(1, generate, 'generationSource')).toBeUndefined();
	expect(shownNamed(CURRENT, generate, 'generationSource')?.default).toBe('define');
	expect(shownNamed(CURRENT, { ...generate, size: 'custom' }, 'customSize')?.type).toBe('string');
	expect(shownNamed(CURRENT, generate, 'customSize')).toBeUndefined();
});

test('empty reads as Service Default in the lists where the service may choose', () => {
	for (const [values, name] of [
		[generate, 'platform'],
		[generate, 'outputLanguage'],
		[{ resource: 'aPlusPlan', operation: 'create' }, 'market'],
		[{ resource: 'aPlusPlan', operation: 'create' }, 'language'],
	] as const) {
		const listed = shownField(CURRENT, values, name);
		expect(listed?.default).toBe('');
		expect((listed?.options as INodePropertyOptions[])[0]).toMatchObject({
			name: 'Service Default',
			value: '',
		});
	}
});

test('one casing rule for languages: output language lowercase, plan language language-REGION', () => {
	const output = (
		shownField(CURRENT, generate, 'outputLanguage')?.options as INodePropertyOptions[]
	).map((option) => String(option.value));
	const plan = (
		shownField(CURRENT, { resource: 'aPlusPlan', operation: 'create' }, 'language')
			?.options as INodePropertyOptions[]
	).map((option) => String(option.value));
	expect(output).toContain('zh-cn');
	expect(plan).toContain('zh-CN');
	for (const value of output.filter((v) => v && v !== 'custom'))
		expect(value).toBe(value.toLowerCase());
	for (const value of plan.filter((v) => v && v !== 'custom'))
		expect(value).toMatch(/^[a-z]{2}-[A-Z]{2}$/);
});

test('with the module source, Prompt, Aspect Ratio and Resolution are not shown', () => {
	const values = { ...generate, generationSource: 'aPlusModule' };
	for (const name of ['prompt', 'size', 'resolution'])
		expect(shownNamed(CURRENT, values, name)).toBeUndefined();
	expect(shownNamed(CURRENT, values, 'moduleSourceNotice')?.type).toBe('notice');
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
	['the examples (the current version)', path.join(__dirname, '..', '..', 'examples'), [CURRENT]],
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
	png.writeUInt32BE(0x0d0a1a0a, 4);
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
	const imageUrls = shownNamed(CURRENT, fromModule, 'imageUrls');
	expect(imageUrls?.description).toContain('Empty: the photos the A+ plan was made from');
	expect(shownNamed(CURRENT, generate, 'imageUrls')?.placeholder).toContain(
		'https://example.com/image.png',
	);
	expect(shownNamed(1, generate, 'imageUrls')?.placeholder).toContain(
		'https://example.com/image.png',
	);
	for (const name of ['platform', 'outputLanguage']) {
		const fromPlan = shownField(CURRENT, fromModule, name);
		expect(fromPlan?.default).toBe('');
		expect((fromPlan?.options as INodePropertyOptions[])[0]).toMatchObject({
			name: 'From the A+ Plan',
			value: '',
		});
		expect(
			(shownField(CURRENT, generate, name)?.options as INodePropertyOptions[])[0],
		).toMatchObject({ name: 'Service Default' });
		const custom = `custom${name.charAt(0).toUpperCase()}${name.slice(1)}`;
		const other = { productDetails: { [name]: { value: { [name]: 'custom' } } } };
		expect(shownField(CURRENT, { ...fromModule, ...other }, custom)?.type).toBe('string');
		expect(shownField(CURRENT, fromModule, custom)).toBeUndefined();
	}
});

const operations = {
	generateAndWait: generate,
	generate: { resource: 'image', operation: 'generate' },
	analyze: { resource: 'analysis', operation: 'analyze' },
	create: { resource: 'aPlusPlan', operation: 'create' },
};

test('the current version asks once where the images come from: Images From shows the fields it names', () => {
	for (const [operation, values] of Object.entries(operations)) {
		const source = shownNamed(CURRENT, values, 'imageSource');
		expect(source?.default).toBe('urls');
		expect(
			(source?.options as INodePropertyOptions[]).map((option) => option.value).sort(),
		).toEqual(['binary', 'both', 'urls']);
		expect(shownNamed(CURRENT, values, 'imageUrls')).toBeDefined();
		expect(shownNamed(CURRENT, values, 'inputBinaryFields')).toBeUndefined();
		const binary = { ...values, imageSource: 'binary' };
		expect(shownNamed(CURRENT, binary, 'imageUrls')).toBeUndefined();
		expect(shownNamed(CURRENT, binary, 'inputBinaryFields')).toBeDefined();
		const both = { ...values, imageSource: 'both' };
		expect(shownNamed(CURRENT, both, 'imageUrls')?.required).toBeFalsy();
		expect(shownNamed(CURRENT, both, 'inputBinaryFields')?.required).toBeFalsy();
		// Analyze and A+ Plan need an image: the one field chosen is required.
		const needsImage = operation === 'analyze' || operation === 'create';
		expect(Boolean(shownNamed(CURRENT, values, 'imageUrls')?.required)).toBe(needsImage);
		expect(Boolean(shownNamed(CURRENT, binary, 'inputBinaryFields')?.required)).toBe(needsImage);
		expect(shownNamed(1, values, 'imageSource')).toBeUndefined();
	}
	const fromModule = { ...generate, generationSource: 'aPlusModule' };
	expect(shownNamed(CURRENT, fromModule, 'imageUrls')?.description).toContain(
		'Empty: the photos the A+ plan was made from',
	);
});

/** The default of every option shown, the settings inside a bundle of Options included. */
function optionsOf(typeVersion: number, values: INodeParameters): Record<string, unknown> {
	return Object.fromEntries(
		walkShown(description, typeVersion, values)
			.filter(({ path }) => path.split('.')[0] === 'options')
			.map(({ property }) => [property.name, property.default]),
	);
}

test('the current version shows the defaults it uses; version 1 keeps the ones it was saved with', () => {
	const wait = { resource: 'task', operation: 'wait' };
	expect(optionsOf(CURRENT, generate)).toMatchObject({
		initialDelay: 5,
		includeOtherFields: true,
		maxGenerations: 0,
	});
	expect(optionsOf(CURRENT, operations.generate)).toMatchObject({
		includeOtherFields: true,
		maxGenerations: 0,
	});
	expect(optionsOf(CURRENT, wait)).toMatchObject({ initialDelay: 0 });
	expect(optionsOf(1, generate)).toMatchObject({
		initialDelay: 5,
		includeOtherFields: false,
		maxGenerations: 10,
	});
	expect(optionsOf(1, wait)).toMatchObject({ initialDelay: 5 });
});

describe('the Modules list names every A+ module by its purpose and the pixel size it must fill', () => {
	// Each module of the spec's table (test/harness/specModules.ts) with its list entry's title.
	const titles: Record<string, string> = {
		hero: 'Premium First-Screen Key Visual (1464×600)',
		hero970: 'Standard First-Screen Key Visual (970×600)',
		core: 'Core Selling Points (970×600)',
		usage: 'Usage Scenes (970×600)',
		angles: 'Multiple Angles (970×600)',
		mood: 'Scene Atmosphere (970×600)',
		detail: 'Product Details (970×600)',
		brand: 'Brand Story (463×625)',
		size: 'Size, Capacity or Clothing Size (220×220)',
		compare: 'Effect Comparison (150×300)',
		specs: 'Detailed Specifications or Parameter Table (970×600)',
		process: 'Manufacturing Process (970×600)',
		accessories: 'Accessories or Gifts (970×600)',
		series: 'Product Series Display (970×600)',
		ingredients: 'Ingredients (970×600)',
		care: 'Usage and Care Instructions (970×600)',
		tips: 'Usage Suggestions (600×450)',
	};
	const modules = SPEC_MODULES.map(([id, purpose]): [string, string, string] => [
		id,
		purpose,
		titles[id],
	]);
	const plan = { resource: 'aPlusPlan', operation: 'create' };
	const listed = (typeVersion: number) =>
		(shownNamed(typeVersion, plan, 'modules')?.options ?? []) as INodePropertyOptions[];
	const entryOf = (typeVersion: number, id: string) =>
		listed(typeVersion).find((option) => option.value === id);

	test('both versions list the 17 modules, and only them', () => {
		const ids = modules.map(([id]) => id).sort();
		expect(
			listed(1)
				.map((option) => option.value)
				.sort(),
		).toEqual(ids);
		expect(
			listed(CURRENT)
				.map((option) => option.value)
				.sort(),
		).toEqual(ids);
	});

	test.each(modules)('%s: "%s" as "%s"', (id, purpose, title) => {
		expect(entryOf(1, id)).toMatchObject({
			name: title,
			description: `${purpose}. Sent as ${id}.`,
		});
		// The current version names "Product details" otherwise: the Product Details collection has that name.
		// Its titles also hold the code and the size as the output writes them, for n8n's filter.
		const code = `${id.charAt(0).toUpperCase()}${id.slice(1)}`;
		expect(entryOf(CURRENT, id)?.name).toBe(
			(id === 'detail' ? 'Close-Ups of Details (970×600)' : title).replace(
				/\((\d+)×(\d+)\)$/,
				`(${code}, $1x$2)`,
			),
		);
	});
});
