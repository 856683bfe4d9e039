import { readImageAddresses } from '../../nodes/ProductImage/helpers/imageInputs';
import {
	amazonCatalogItem,
	bigCommerceProduct,
	EXPECTED_ADDRESSES,
	magentoProduct,
	shopifyProduct,
	wooCommerceProduct,
} from '../harness/storeProducts';

const addresses = (value: unknown, raw?: unknown) => {
	const reading = readImageAddresses(value, raw);
	if (!reading.ok) throw new Error(`unexpected problem: ${reading.problem}`);
	return reading.addresses;
};

const problem = (value: unknown, raw?: unknown) => {
	const reading = readImageAddresses(value, raw);
	if (reading.ok)
		throw new Error(`read ${JSON.stringify(reading.addresses)} where a problem was expected`);
	return reading;
};

describe('readImageAddresses reads what a drag from each store produces', () => {
	test.each([
		['Shopify images', shopifyProduct.images, EXPECTED_ADDRESSES.shopify],
		['Shopify image', shopifyProduct.image, [shopifyProduct.image.src]],
		['Shopify product', shopifyProduct, EXPECTED_ADDRESSES.shopify],
		['WooCommerce images', wooCommerceProduct.images, EXPECTED_ADDRESSES.wooCommerce],
		[
			'BigCommerce images (the largest size)',
			bigCommerceProduct.images,
			EXPECTED_ADDRESSES.bigCommerce,
		],
		[
			'Amazon image sets (largest per picture, each address once)',
			amazonCatalogItem.images,
			EXPECTED_ADDRESSES.amazon,
		],
		['Amazon item', amazonCatalogItem, EXPECTED_ADDRESSES.amazon],
		[
			"this node's Upload output",
			{ id: 'u1', url: 'https://svc.test/v1/open/media/u1.png', expiresAt: 'x' },
			['https://svc.test/v1/open/media/u1.png'],
		],
		[
			'Shopify GraphQL image',
			{ url: 'https://cdn.shopify.com/a.jpg', altText: null },
			['https://cdn.shopify.com/a.jpg'],
		],
	])('%s', (_name, value, expected) => {
		expect(addresses(value)).toEqual(expected);
	});
});

describe('readImageAddresses keeps the forms it read before', () => {
	test.each([
		['https://a/1.png, https://a/2.png', ['https://a/1.png', 'https://a/2.png']],
		[['https://a/1.png,https://a/2.png'], ['https://a/1.png,https://a/2.png']],
		['https://cdn.test/upload/w_400,h_300/x.jpg', ['https://cdn.test/upload/w_400,h_300/x.jpg']],
		['', []],
		[undefined, []],
		[null, []],
		[[[], [null]], []],
	])('%j', (value, expected) => {
		expect(addresses(value)).toEqual(expected);
	});
});

test('nested lists and mixed entries keep their order; an address met twice is sent once', () => {
	expect(
		addresses([
			['https://a/1.png', { src: 'https://a/2.png' }],
			[[{ link: 'https://a/3.png' }], 'https://a/1.png'],
			{ url_standard: 'https://a/4.png', url_tiny: 'https://a/4-tiny.png' },
		]),
	).toEqual(['https://a/1.png', 'https://a/2.png', 'https://a/3.png', 'https://a/4.png']);
});

test('a string holding a JSON list or image object is read as one', () => {
	expect(addresses(JSON.stringify(shopifyProduct.images))).toEqual(EXPECTED_ADDRESSES.shopify);
	expect(addresses(' {"src": "https://a/1.png"} ')).toEqual(['https://a/1.png']);
	expect(addresses('["https://a/1.png", "https://a/2,3.png"]')).toEqual([
		'https://a/1.png',
		'https://a/2,3.png',
	]);
	// Not JSON after all: read as addresses (and refused later by the http(s) check).
	expect(addresses('[draft] https://a/1.png')).toEqual(['[draft] https://a/1.png']);
});

test('Amazon sizes of one picture collapse to the largest only inside one image set', () => {
	const set = [
		{ variant: 'MAIN', link: 'https://m/small.jpg', width: 75, height: 75 },
		{ variant: 'MAIN', link: 'https://m/large.jpg', width: 1500, height: 1500 },
		{ variant: 'PT01', link: 'https://m/pt01.jpg', width: 500, height: 500 },
	];
	expect(addresses(set)).toEqual(['https://m/large.jpg', 'https://m/pt01.jpg']);
	// Objects without a variant are distinct images, whatever their size.
	expect(addresses(set.map(({ link, width, height }) => ({ link, width, height })))).toEqual([
		'https://m/small.jpg',
		'https://m/large.jpg',
		'https://m/pt01.jpg',
	]);
});

describe('what cannot be read is named, with what would work', () => {
	test('Magento entries are paths inside the store: the hint builds the address from the dragged field', () => {
		const reading = problem(
			magentoProduct.media_gallery_entries,
			'={{ $json.media_gallery_entries }}',
		);
		expect(reading.problem).toBe(
			'the image "/m/b/mb01-blue-0.jpg" is a path inside a Magento store, not a URL',
		);
		expect(reading.hint).toContain(
			"{{ $json.media_gallery_entries.map(i => 'https://YOUR-STORE/media/catalog/product' + i.file) }}",
		);
	});

	test('an object with an address in an unknown field names its fields and the expression for that field', () => {
		const reading = problem([{ id: 1, zoom_image: 'https://a/1.png' }], '={{ $json.gallery }}');
		expect(reading.problem).toContain(
			'an image object with the fields id, zoom_image holds no URL in a field this node reads (src, url_zoom',
		);
		expect(reading.hint).toBe(
			"Its field 'zoom_image' holds a URL: enter {{ $json.gallery.map(i => i.zoom_image) }} instead.",
		);
		expect(
			problem({ id: 1, zoom_image: 'https://a/1.png' }, '={{ $json.picture }}').hint,
		).toContain('{{ $json.picture.zoom_image }}');
	});

	test('an object without any address says so', () => {
		const reading = problem({ id: 5, title: 'Blue' });
		expect(reading.problem).toContain('the fields id, title');
		expect(reading.hint).toContain('None of its fields holds an http(s) URL');
	});

	test('"[object Object]" text is an expression that turned images into text', () => {
		expect(problem('Images: [object Object],[object Object]').problem).toBe(
			'the expression turned image objects into the text "[object Object]"',
		);
		expect(problem(['[object Object]']).problem).toContain('[object Object]');
	});

	test('lists nested past any store shape are refused rather than searched', () => {
		expect(problem([[[[[[[['https://a/1.png']]]]]]]]).problem).toBe(
			'the images are nested too deeply to read',
		);
	});
});
