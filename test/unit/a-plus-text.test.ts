import type { IDataObject } from 'n8n-workflow';

import { SPEC_MODULES } from '../harness/specModules';

// An A+ plan is asked for with a product description as plain text: a store's HTML (Shopify's
// body_html) or the Analyze brief's Markdown would otherwise reach the planner as markup, and its
// symbols would end up in the prompts it writes. Each case names one rule, with the whole output.

// The file's tables (the modules, the fields that name a module, the small words of a title) are
// built once, when it loads. Loaded again before each test, they count as reached by every test
// here, so `npm run mutation` runs these tests against each change to a table.
type APlus = typeof import('../../nodes/ProductImage/helpers/aPlus');
let aPlus: APlus;
beforeEach(() => {
	jest.isolateModules(() => {
		aPlus = jest.requireActual<APlus>('../../nodes/ProductImage/helpers/aPlus');
	});
});

describe('Markdown (the Analyze brief) becomes plain text', () => {
	test.each([
		[
			'a fenced code block keeps its lines and loses its ``` fences, info string and all',
			'Setup:\n```text\nFill to 750 ml\n```',
			'Setup:\n\nFill to 750 ml',
		],
		['a ~~~ inside a line is no fence', 'Wave print ~~~ on the lid', 'Wave print ~~~ on the lid'],
		[
			'an indented ~~~ fence goes too',
			'Setup:\n  ~~~\nFill to 750 ml\n  ~~~',
			'Setup:\n\nFill to 750 ml',
		],
		[
			'an image becomes its alt text',
			'Photo: ![Bottle on a rock](https://cdn.test/b.png) in use',
			'Photo: Bottle on a rock in use',
		],
		[
			'a link becomes its text',
			'[Shop now](https://shop.test/p/1) for 20% off',
			'Shop now for 20% off',
		],
		['an ATX heading loses its # marks, closing ones too', '## Key Features ##', 'Key Features'],
		['a heading after two spaces loses them too', 'Intro\n##  Care', 'Intro\nCare'],
		[
			'closing # marks after two spaces go with the spaces',
			'## Care  ##\nHand wash',
			'Care\nHand wash',
		],
		['a line that starts with inline code is no fence', '`Power` resets it', 'Power resets it'],
		['a rule of dashes after text is text', 'Rating ---', 'Rating ---'],
		['dashes that start a line of text are no rule', '--- Save 20% today', '--- Save 20% today'],
		['an ordered item numbered 10 loses its number', '9. Rinse\n10. Dry', 'Rinse\nDry'],
		[
			'a list marker followed by two spaces goes with them',
			'Care:\n-  Dry flat',
			'Care:\nDry flat',
		],
		['strikethrough over words keeps them', '~~was $39~~ now $29', 'was $39 now $29'],
		['a level-6 heading, indented, is a heading', '  ###### Care', 'Care'],
		['a # at the end of a heading’s word is its text', '## Learn C#', 'Learn C#'],
		[
			'Windows line breaks are line breaks',
			'## Care\r\n\r\n\r\n- Hand wash\r- Dry',
			'Care\n\nHand wash\nDry',
		],
		['seven # marks are not a heading', '####### Care', '####### Care'],
		[
			'a # without a space after it is a hashtag, not a heading',
			'#hydration daily',
			'#hydration daily',
		],
		[
			'a blockquote loses its > marks, with or without a space after them',
			'> Keeps drinks cold\n>for 24 hours',
			'Keeps drinks cold\nfor 24 hours',
		],
		['a > inside a line is text', 'Capacity > 1 l', 'Capacity > 1 l'],
		['a *** rule goes', 'Cold\n\n***\n\nHot', 'Cold\n\nHot'],
		['a - - - rule goes', 'Cold\n\n- - -\n\nHot', 'Cold\n\nHot'],
		['a ___ rule goes', 'Cold\n\n___\n\nHot', 'Cold\n\nHot'],
		[
			'bullets -, * and + and numbers 1. and 2) lose their markers, the indentation of a nested one stays',
			'- Leak-proof lid\n* BPA-free\n+ Dishwasher safe\n1. Fill\n2) Close\n  - 750 ml',
			'Leak-proof lid\nBPA-free\nDishwasher safe\nFill\nClose\n  750 ml',
		],
		[
			'a dash or a number without a space after it is no list marker',
			'-5 °C to 40 °C\n1.5 l bottle',
			'-5 °C to 40 °C\n1.5 l bottle',
		],
		['a dash inside a line is text', 'Rated 4.8 - 5 stars', 'Rated 4.8 - 5 stars'],
		[
			'bold in ** and __ keeps its words',
			'**BPA-free** and __dishwasher safe__',
			'BPA-free and dishwasher safe',
		],
		[
			'emphasis in * and _ keeps its words, beside punctuation too',
			'*Cold* for _24 hours_, (_or more_)',
			'Cold for 24 hours, (or more)',
		],
		[
			'* and _ inside words and numbers are not emphasis',
			'Model trail_bottle_750, 2*3*4 cm, mid*word*s',
			'Model trail_bottle_750, 2*3*4 cm, mid*word*s',
		],
		['a * with spaces around it is not emphasis', 'Price 5 * 3 * 2', 'Price 5 * 3 * 2'],
		[
			'* as a separator and as a footnote mark is not emphasis',
			'BPA-free * Leak-proof * Cold 24 h*, hot 12 h*',
			'BPA-free * Leak-proof * Cold 24 h*, hot 12 h*',
		],
		['strikethrough keeps its words', '~~$39~~ $29 today', '$39 $29 today'],
		['inline code keeps its words', 'Reset: hold `Power` for 5 s', 'Reset: hold Power for 5 s'],
		['three blank lines become one', 'Cold\n\n\n\nHot', 'Cold\n\nHot'],
		['two blank lines become one', 'Cold\n\n\nHot', 'Cold\n\nHot'],
		['one blank line stays', 'Cold\n\nHot', 'Cold\n\nHot'],
		['space and line breaks around the text go', '\n  Cold and hot  \n', 'Cold and hot'],
		[
			'an Amazon-style brief: heading, bullets in bold, a rule and a quote',
			[
				'## About this item',
				'',
				'- **LEAK-PROOF**: the lid seals with a _quarter turn_',
				'- **KEEPS COLD** 24 h, hot 12 h',
				'- Fits most cup holders (7.4 cm base)',
				'',
				'---',
				'',
				'> Hand wash only',
			].join('\n'),
			[
				'About this item',
				'',
				'LEAK-PROOF: the lid seals with a quarter turn',
				'KEEPS COLD 24 h, hot 12 h',
				'Fits most cup holders (7.4 cm base)',
				'',
				'Hand wash only',
			].join('\n'),
		],
	])('%s', (_, markdown, text) => {
		expect(aPlus.plainText(markdown)).toBe(text);
	});
});

describe('HTML (a store’s product description) becomes plain text', () => {
	test.each([
		[
			'script and style blocks go with their content, in any case, closed with a space too',
			'<p>Bottle</p><SCRIPT type="text/javascript">track("view")</script ><style>.x{}</style>',
			'Bottle',
		],
		[
			'the text between two scripts stays',
			'<script>a()</script><p>Keep</p><script>b()</script>',
			'Keep',
		],
		[
			'a comment goes, across lines and with a > inside',
			'<p>Cold<!-- badge if price > 30:\nfree shipping --> and hot</p>',
			'Cold and hot',
		],
		[
			'the text between two comments stays',
			'<p>Cold<!-- a --> and <!-- b -->hot</p>',
			'Cold and hot',
		],
		[
			'a list item, with attributes or without, becomes a "- " line',
			'<ul><li class="first">Cold</li><li>Hot</li></ul>',
			'- Cold\n- Hot',
		],
		[
			'<br>, <br/>, <br /> and <BR> become line breaks',
			'<p>a<br>b<br/>c<br />d<BR>e</p>',
			'a\nb\nc\nd\ne',
		],
		['an inline closing tag joins its text to the next', '<b>Steel</b>bottle', 'Steelbottle'],
		[
			'spaces, tabs and non-breaking spaces in a row become one space',
			'<p>Steel \t\u00a0 bottle&nbsp;&nbsp;750 ml</p>',
			'Steel bottle 750 ml',
		],
		['spaces around a line break go', '<p>Cold  </p>  <p>  hot</p>', 'Cold\nhot'],
		['three or more line breaks become two', '<p>Cold</p><br><br><br>hot', 'Cold\n\nhot'],
		['two line breaks stay', '<p>Cold</p><br>hot', 'Cold\n\nhot'],
		[
			'entities are decoded after the tags are gone: an escaped tag is text',
			'<p>Use &lt;b&gt; for bold &amp; &#8212; &#x2014;</p>',
			'Use <b> for bold & — —',
		],
		[
			'line breaks in the source between list items leave no blank lines',
			'<p>Features:</p>\n<ul>\n  <li>Leak-proof lid</li>\n  <li>BPA-free</li>\n</ul>',
			'Features:\n\n- Leak-proof lid\n- BPA-free',
		],
		[
			'a list item closed before text keeps a space to it',
			'<ul><li>Cold</li> and more</ul>',
			'- Cold and more',
		],
		[
			'a table row keeps a space between its cells',
			'<table><tr><th>Weight</th><td>750 g</td></tr><tr><TH>Height</TH ><td>26 cm</td></tr></table>',
			'Weight 750 g\nHeight 26 cm',
		],
		[
			'a <link> or <line> is no list item',
			'<link rel="stylesheet" href="s.css"><p>Cold<line></line> and hot</p>',
			'Cold and hot',
		],
		[
			'a list closed on a line of its own leaves no blank line after it',
			'<ul>\n  <li>Cold</li>\n  </ul>After',
			'- Cold\nAfter',
		],
		[
			'a script with spaces in it goes whole',
			'<p>Bottle</p><script>track("view", { id: 1 })</script>',
			'Bottle',
		],
		['a capital V is a letter, a vertical tab a space', '<p>V-shaped\vlid</p>', 'V-shaped lid'],
		['spaces after a line break go', '<p>Cold</p>  hot', 'Cold\nhot'],
		[
			'a Shopify body_html: heading, paragraphs, a list and spans',
			[
				'<meta charset="utf-8">',
				'<h2 data-mce-fragment="1">Trail Bottle 750 ml</h2>',
				'<p><strong>Double-wall</strong> steel keeps drinks cold for 24&nbsp;hours.</p>',
				'<ul><li>Leak-proof lid</li><li>BPA-free</li></ul>',
				'<p><span style="color: #555;">Hand wash only.</span></p>',
			].join('\n'),
			[
				'Trail Bottle 750 ml',
				'',
				'Double-wall steel keeps drinks cold for 24 hours.',
				'',
				'- Leak-proof lid',
				'- BPA-free',
				'',
				'Hand wash only.',
			].join('\n'),
		],
	])('%s', (_, html, text) => {
		expect(aPlus.htmlToText(html)).toBe(text);
	});

	test.each(['p', 'div', 'ul', 'ol', 'h1', 'h6', 'tr', 'table', 'section', 'article', 'P '])(
		'a closing </%s> ends a line',
		(tag) => {
			expect(aPlus.htmlToText(`Cold</${tag}>Hot`)).toBe('Cold\nHot');
		},
	);

	test.each([
		['a < between numbers', 'Fits 3 < 4 cups & more'],
		['a < before a digit', 'Holds <1 l,  or >500 ml'],
		['an entity without any tag', 'Cold\n\n\n\nhot &amp; more'],
	])('text without tags is returned as it came: %s', (_, text) => {
		expect(aPlus.htmlToText(text)).toBe(text);
	});

	test.each([
		['a closing tag', 'Cold</p>hot', 'Cold\nhot'],
		['a tag with attributes', '<b class="x">Cold</b> & hot', 'Cold & hot'],
		['only a tag with attributes', 'Cold<span class="x"> & hot', 'Cold & hot'],
		['a self-closing tag', 'Cold<br/>hot', 'Cold\nhot'],
	])('text with %s is HTML', (_, html, text) => {
		expect(aPlus.htmlToText(html)).toBe(text);
	});

	test('the list items of HTML reach the plan as lines without markers, as Markdown ones do', () => {
		expect(
			aPlus.plainText('<h2>Trail Bottle</h2><ul><li>**Leak-proof** lid</li><li>BPA-free</li></ul>'),
		).toBe('Trail Bottle\n\nLeak-proof lid\nBPA-free');
	});
});

describe('the module table: the spec’s purposes and target sizes', () => {
	test('every module, in the spec’s order, with its purpose and pixel size', () => {
		expect(
			aPlus.A_PLUS_MODULES.map(({ id, purpose, width, height }) => [id, purpose, width, height]),
		).toEqual(SPEC_MODULES);
	});
});

describe('a module’s title: its purpose in Title Case, then its pixel size', () => {
	const titled = (purpose: string) =>
		aPlus.moduleTitle({ id: 'x', purpose, width: 970, height: 600 });

	test.each([
		['a small word first is capitalised', 'the brand in use', 'The Brand in Use (970×600)'],
		[
			'the small words a, an, and, for, in, of, or, the and to stay lower case after the first',
			'guide to a bag for the road and an hour in or out of town',
			'Guide to a Bag for the Road and an Hour in or Out of Town (970×600)',
		],
		[
			'a small word typed in capitals is lower-cased',
			'Gifts Or Accessories',
			'Gifts or Accessories (970×600)',
		],
		[
			'each part of a hyphenated word is capitalised',
			'anti-slip first-screen base',
			'Anti-Slip First-Screen Base (970×600)',
		],
		['words in capitals keep them', 'USB charging', 'USB Charging (970×600)'],
	])('%s', (_, purpose, title) => {
		expect(titled(purpose)).toBe(title);
	});

	test('a module’s title ends in its own pixel size', () => {
		const size = aPlus.A_PLUS_MODULES.find((module) => module.id === 'size')!;
		expect(aPlus.moduleTitle(size)).toBe('Size, Capacity or Clothing Size (220×220)');
	});
});

describe('the items of a plan, one per module', () => {
	const plan = (modules: IDataObject[], extra: IDataObject = {}) => ({
		modules: modules.map((module) => ({ recommended_prompt: 'A bottle on a rock', ...module })),
		...extra,
	});
	const hero = {
		module: 'hero',
		module_index: 0,
		purpose: 'Premium first-screen key visual',
		target_width: 1464,
		target_height: 600,
		target_size: '1464x600',
		aspect_ratio: '61:25',
		recommended_prompt: 'A bottle on a rock',
	};

	// The node asks for ownKeys: with Include Other Input Fields on, the product's own id, title or
	// name rides on every module item, and the module's must not take its place.
	test("with ownKeys, a module's id, title and name become module_id, module_title and module_name", () => {
		const items = aPlus.planModuleItems(
			plan([{ id: 'm-1', title: 'Hero banner', name: 'hero-banner', headline: 'Cold 24 h' }], {
				global_style: 'calm',
				notes: 'check claims',
			}),
			['hero'],
			{ ownKeys: true },
		);
		expect(items).toEqual([
			{
				...hero,
				module_id: 'm-1',
				module_title: 'Hero banner',
				module_name: 'hero-banner',
				headline: 'Cold 24 h',
				global_style: 'calm',
				notes: 'check claims',
			},
		]);
	});

	test('with ownKeys, a module that has a module_title of its own keeps its title as title', () => {
		const items = aPlus.planModuleItems(
			plan([{ title: 'Banner', module_title: 'Hero' }]),
			['hero'],
			{
				ownKeys: true,
			},
		);
		expect(items).toEqual([
			{ ...hero, title: 'Banner', module_title: 'Hero', global_style: null, notes: null },
		]);
	});

	test('without ownKeys, a module’s id, title and name keep their names', () => {
		const items = aPlus.planModuleItems(plan([{ id: 'm-1', title: 'Banner', name: 'b' }]), [
			'hero',
		]);
		expect(items).toEqual([
			{ ...hero, id: 'm-1', title: 'Banner', name: 'b', global_style: null, notes: null },
		]);
	});

	test('a module named by its id field is found by it even when that field is moved aside', () => {
		const [item] = aPlus.planModuleItems(plan([{ id: 'size' }]), ['hero', 'size'], {
			ownKeys: true,
		});
		expect(item).toMatchObject({ module: 'size', module_id: 'size', target_size: '220x220' });
	});

	const ID_FIELDS = ['module', 'module_id', 'moduleId', 'id', 'type', 'key', 'name'];
	const CHOSEN = ['hero', 'core', 'usage', 'angles', 'mood', 'detail', 'brand'];

	test.each(ID_FIELDS)("a module's %s field names it, whatever its position", (field) => {
		const [item] = aPlus.planModuleItems(plan([{ [field]: 'size' }]), ['hero', 'size']);
		expect(item.module).toBe('size');
	});

	test.each(ID_FIELDS.map((field, index) => [field, CHOSEN[index]]))(
		'%s names the module over the fields read after it: %s',
		(field, module) => {
			const start = ID_FIELDS.indexOf(field);
			const entry = Object.fromEntries(
				ID_FIELDS.slice(start).map((name) => [name, CHOSEN[ID_FIELDS.indexOf(name)]]),
			);
			const [item] = aPlus.planModuleItems(plan([entry]), ['tips', ...CHOSEN]);
			expect(item.module).toBe(module);
		},
	);

	test('a field naming a module that was not chosen, or holding no text, is passed over', () => {
		const items = aPlus.planModuleItems(
			plan([{ module: 'banner', id: 7, type: 'size' }, { module: 'banner' }]),
			['hero', 'core', 'size'],
		);
		expect(items.map((item) => item.module)).toEqual(['size', 'core']);
	});

	test('a module beyond the chosen ones has no module, purpose or size', () => {
		const items = aPlus.planModuleItems(plan([{}, {}]), ['hero']);
		expect(items[1]).toEqual({
			module: null,
			module_index: 1,
			purpose: null,
			target_width: null,
			target_height: null,
			target_size: null,
			aspect_ratio: null,
			recommended_prompt: 'A bottle on a rock',
			global_style: null,
			notes: null,
		});
	});
});
