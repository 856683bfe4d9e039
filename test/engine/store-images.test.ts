import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine';
import { credentialsFor, useSimulator } from '../harness/simulator';
import { generatedImageUrl } from '../harness/operations';
import {
	amazonCatalogItem,
	bigCommerceProduct,
	EXPECTED_ADDRESSES,
	magentoProduct,
	shopifyProduct,
	wooCommerceProduct,
} from '../harness/storeProducts';

const simulator = useSimulator();

const generate = (imageUrls: string): { parameters: INodeParameters } => ({
	parameters: { resource: 'image', operation: 'generate', prompt: 'studio shot', imageUrls },
});

const submittedImageUrls = (sim: ReturnType<typeof simulator>) =>
	[...sim.tasks.values()].map((task) => task.body.image_urls);

// What the editor writes when a field is dragged from the input panel: the expression alone.
test.each([
	['Shopify', shopifyProduct, '={{ $json.images }}', EXPECTED_ADDRESSES.shopify],
	['WooCommerce', wooCommerceProduct, '={{ $json.images }}', EXPECTED_ADDRESSES.wooCommerce],
	['BigCommerce', bigCommerceProduct, '={{ $json.images }}', EXPECTED_ADDRESSES.bigCommerce],
	[
		'Amazon SP-API catalog item',
		amazonCatalogItem,
		'={{ $json.images }}',
		EXPECTED_ADDRESSES.amazon,
	],
	['Shopify, one image object', shopifyProduct, '={{ $json.image }}', [shopifyProduct.image.src]],
	[
		'Shopify, one image of the list',
		shopifyProduct,
		'={{ $json.images[1] }}',
		[shopifyProduct.images[1].src],
	],
	['Shopify, the whole product', shopifyProduct, '={{ $json }}', EXPECTED_ADDRESSES.shopify],
	[
		'Amazon, one marketplace set',
		amazonCatalogItem,
		'={{ $json.images[0] }}',
		EXPECTED_ADDRESSES.amazon.slice(0, 2),
	],
])(
	'%s: the dragged field reaches the service as the image addresses, in order',
	async (_store, product, expression, expected) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generate(expression)],
			input: [{ json: product as unknown as IDataObject }],
		});

		expect(result.error).toBeUndefined();
		expect(submittedImageUrls(sim)).toEqual([expected]);
	},
);

test.each([
	[
		'analysis',
		{ resource: 'analysis', operation: 'analyze', productDetails: { productName: 'Bottle' } },
	],
	[
		'plan',
		{
			resource: 'aPlusPlan',
			operation: 'create',
			descriptionSource: 'define',
			productDescription: 'Bottle',
			modules: ['hero'],
		},
	],
])('the same drag works on the %s request', async (route, parameters) => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [{ parameters: { ...parameters, imageUrls: '={{ $json.images }}' } }],
		input: [{ json: bigCommerceProduct as unknown as IDataObject }],
	});

	expect(result.error).toBeUndefined();
	expect(sim.stats.requests.map((request) => [request.route, request.imageUrls])).toEqual([
		[route, EXPECTED_ADDRESSES.bigCommerce],
	]);
});

test('Generate and Wait takes a drag of nested image sets and a list mixing strings and objects', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{
				parameters: {
					resource: 'image',
					operation: 'generateAndWait',
					prompt: 'studio shot',
					imageUrls:
						'={{ [$json.images, "https://img.test/extra.jpg", { src: "https://img.test/last.jpg" }] }}',
					options: {
						waiting: { value: { initialDelay: 0, pollInterval: 0.1 } },
						outputFiles: { value: { downloadImages: false } },
					},
				},
			},
		],
		input: [{ json: shopifyProduct as unknown as IDataObject }],
	});

	expect(result.error).toBeUndefined();
	expect(submittedImageUrls(sim)).toEqual([
		[...EXPECTED_ADDRESSES.shopify, 'https://img.test/extra.jpg', 'https://img.test/last.jpg'],
	]);
});

test('a string holding a JSON list of images or addresses is read as that list', async () => {
	const sim = simulator();
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			generate(JSON.stringify(wooCommerceProduct.images)),
			generate('["https://img.test/a.jpg", "https://img.test/b,c.jpg"]'),
		],
	});

	expect(result.error).toBeUndefined();
	expect(submittedImageUrls(sim)).toEqual([
		EXPECTED_ADDRESSES.wooCommerce,
		['https://img.test/a.jpg', 'https://img.test/b,c.jpg'],
	]);
});

test('Image → Download takes one dragged image object', async () => {
	const sim = simulator();
	const url = await generatedImageUrl(sim, 'a mug');
	const result = await runWorkflow({
		credentials: credentialsFor(sim),
		nodes: [
			{ parameters: { resource: 'image', operation: 'download', url: '={{ $json.image }}' } },
		],
		input: [{ json: { image: { id: 1, src: url, width: 256, height: 256 } } }],
	});

	expect(result.error).toBeUndefined();
	expect(result.items[0].json.url).toBe(url);
	expect(result.items[0].binary?.data).toBeDefined();
});

describe('a shape the node cannot read is a parameter error before any request', () => {
	test.each([
		[
			'Magento gallery entries (paths inside the store)',
			magentoProduct,
			'={{ $json.media_gallery_entries }}',
			`'Image URLs': the image "/m/b/mb01-blue-0.jpg" is a path inside a Magento store, not a URL`,
			"{{ $json.media_gallery_entries.map(i => 'https://YOUR-STORE/media/catalog/product' + i.file) }}",
		],
		[
			'Magento product dragged whole',
			magentoProduct,
			'={{ $json }}',
			'is a path inside a Magento store',
			'$json.media_gallery_entries.map(',
		],
		[
			'objects whose address is in a field the node does not read',
			{ pictures: [{ id: 1, full_size: 'https://img.test/a.jpg', caption: 'front' }] },
			'={{ $json.pictures }}',
			`'Image URLs': an image object with the fields id, full_size, caption holds no URL in a field this node reads`,
			"Its field 'full_size' holds a URL: enter {{ $json.pictures.map(i => i.full_size) }} instead.",
		],
		[
			'one object without any address',
			shopifyProduct,
			'={{ $json.variants[0] }}',
			'an image object with the fields id, product_id, title, price, sku, image_id holds no URL',
			'None of its fields holds an http(s) URL.',
		],
		[
			'objects turned into text by an expression inside text',
			shopifyProduct,
			'=Images: {{ $json.images }}',
			`'Image URLs': the expression turned image objects into the text "[object Object]"`,
			'such as {{ $json.images }} with no text around it',
		],
		[
			'a product title dragged into Image URLs',
			shopifyProduct,
			'={{ $json.title }}',
			`'Image URLs': "${shopifyProduct.title}" is not an http(s) URL`,
			"'Image URLs' takes URLs that start with https:// (or http://), or a store item's 'images' field dragged from the input panel",
		],
		[
			'a relative path',
			{},
			'/products/bottle.jpg',
			`'Image URLs': "/products/bottle.jpg" is not an http(s) URL`,
			'',
		],
	])('%s', async (_case, product, imageUrls, message, hint) => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [generate(imageUrls)],
			input: [{ json: product as unknown as IDataObject }],
		});

		expect(result.error?.message).toContain(message);
		expect(result.error?.description).toContain(hint);
		expect(sim.stats.requests).toHaveLength(0);
		expect(sim.stats.submitsAccepted).toBe(0);
	});

	test('Download given a product image list names the count and what to do', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{ parameters: { resource: 'image', operation: 'download', url: '={{ $json.images }}' } },
			],
			input: [{ json: shopifyProduct as unknown as IDataObject }],
		});

		expect(result.error?.message).toBe(
			`'URL': 2 image URLs given; Download takes one per item [item 0]`,
		);
		expect(result.error?.description).toContain('Split Out');
		expect(sim.stats.requests).toHaveLength(0);
	});

	test('Download given a Magento entry says it is a path inside the store', async () => {
		const sim = simulator();
		const result = await runWorkflow({
			credentials: credentialsFor(sim),
			nodes: [
				{
					parameters: {
						resource: 'image',
						operation: 'download',
						url: '={{ $json.media_gallery_entries[0] }}',
					},
				},
			],
			input: [{ json: magentoProduct as unknown as IDataObject }],
		});

		expect(result.error?.message).toContain(
			`'URL': the image "/m/b/mb01-blue-0.jpg" is a path inside a Magento store`,
		);
		expect(sim.stats.requests).toHaveLength(0);
	});
});
