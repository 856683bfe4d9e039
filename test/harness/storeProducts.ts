/**
 * Products as the store nodes and APIs hand them to the next node, trimmed to the fields that
 * matter here but with their real names and nesting:
 * - Shopify: n8n's Shopify node, Product → Get (REST Admin API `product`), `images[].src`.
 * - WooCommerce: n8n's WooCommerce node, Product → Get (REST API v3), `images[].src`.
 * - BigCommerce: Catalog API v3 product with `include=images` (HTTP Request node), each image in
 *   four sizes `url_zoom`, `url_standard`, `url_thumbnail`, `url_tiny`.
 * - Amazon: SP-API Catalog Items 2022-04-01 `getCatalogItem` with `includedData=images`, one
 *   image set per marketplace, each picture (`variant`) in several sizes, `images[].images[].link`.
 * - Magento: n8n's Magento 2 node, Product → Get, `media_gallery_entries[].file`, a path below
 *   the store's media folder.
 */

export const shopifyProduct = {
	id: 632910392,
	title: 'Insulated Steel Bottle 750 ml',
	handle: 'insulated-steel-bottle',
	status: 'active',
	admin_graphql_api_id: 'gid://shopify/Product/632910392',
	variants: [
		{
			id: 808950810,
			product_id: 632910392,
			title: 'Blue',
			price: '24.00',
			sku: 'BTL-750-BL',
			image_id: 850703190,
		},
	],
	images: [
		{
			id: 850703190,
			alt: 'Bottle, front',
			position: 1,
			product_id: 632910392,
			created_at: '2026-01-10T09:12:44-05:00',
			updated_at: '2026-01-10T09:12:44-05:00',
			admin_graphql_api_id: 'gid://shopify/ProductImage/850703190',
			width: 2048,
			height: 2048,
			src: 'https://cdn.shopify.com/s/files/1/0005/4838/0009/products/bottle-front.jpg?v=1736518364',
			variant_ids: [808950810],
		},
		{
			id: 562641783,
			alt: null,
			position: 2,
			product_id: 632910392,
			created_at: '2026-01-10T09:12:45-05:00',
			updated_at: '2026-01-10T09:12:45-05:00',
			admin_graphql_api_id: 'gid://shopify/ProductImage/562641783',
			width: 2048,
			height: 2048,
			src: 'https://cdn.shopify.com/s/files/1/0005/4838/0009/products/bottle-side.jpg?v=1736518365',
			variant_ids: [],
		},
	],
	image: {
		id: 850703190,
		position: 1,
		product_id: 632910392,
		width: 2048,
		height: 2048,
		src: 'https://cdn.shopify.com/s/files/1/0005/4838/0009/products/bottle-front.jpg?v=1736518364',
	},
};

export const wooCommerceProduct = {
	id: 794,
	name: 'Insulated Steel Bottle',
	slug: 'insulated-steel-bottle',
	permalink: 'https://shop.example.com/product/insulated-steel-bottle/',
	type: 'simple',
	status: 'publish',
	price: '24.00',
	images: [
		{
			id: 792,
			date_created: '2026-01-10T14:01:13',
			date_created_gmt: '2026-01-10T20:01:13',
			date_modified: '2026-01-10T14:01:13',
			date_modified_gmt: '2026-01-10T20:01:13',
			src: 'https://shop.example.com/wp-content/uploads/2026/01/bottle-front.jpg',
			name: 'bottle-front',
			alt: '',
		},
		{
			id: 793,
			date_created: '2026-01-10T14:01:14',
			date_created_gmt: '2026-01-10T20:01:14',
			date_modified: '2026-01-10T14:01:14',
			date_modified_gmt: '2026-01-10T20:01:14',
			src: 'https://shop.example.com/wp-content/uploads/2026/01/bottle-back.jpg',
			name: 'bottle-back',
			alt: '',
		},
	],
};

const bigCommerceImage = (id: number, file: string, sortOrder: number) => {
	const base = `https://cdn11.bigcommerce.com/s-x3k9q2/products/111/images/${id}/${file}__38567.1736518364`;
	return {
		id,
		product_id: 111,
		is_thumbnail: sortOrder === 0,
		sort_order: sortOrder,
		description: '',
		image_file: `h/654/${file}__38567.jpg`,
		url_zoom: `${base}.1280.1280.jpg?c=1`,
		url_standard: `${base}.386.513.jpg?c=1`,
		url_thumbnail: `${base}.220.290.jpg?c=1`,
		url_tiny: `${base}.44.58.jpg?c=1`,
		date_modified: '2026-01-10T20:01:13+00:00',
	};
};

export const bigCommerceProduct = {
	id: 111,
	name: 'Insulated Steel Bottle',
	type: 'physical',
	sku: 'BTL-750',
	images: [bigCommerceImage(372, 'bottle_front', 0), bigCommerceImage(373, 'bottle_side', 1)],
};

export const amazonCatalogItem = {
	asin: 'B0CXYZ1234',
	images: [
		{
			marketplaceId: 'ATVPDKIKX0DER',
			images: [
				{
					variant: 'MAIN',
					link: 'https://m.media-amazon.com/images/I/51DZzp3w3vL.jpg',
					height: 1500,
					width: 1500,
				},
				{
					variant: 'MAIN',
					link: 'https://m.media-amazon.com/images/I/51DZzp3w3vL._SL75_.jpg',
					height: 75,
					width: 75,
				},
				{
					variant: 'PT01',
					link: 'https://m.media-amazon.com/images/I/41aSpSTIcDL._SL75_.jpg',
					height: 75,
					width: 75,
				},
				{
					variant: 'PT01',
					link: 'https://m.media-amazon.com/images/I/41aSpSTIcDL.jpg',
					height: 1200,
					width: 1200,
				},
			],
		},
		{
			marketplaceId: 'A1F83G8C2ARO7P',
			images: [
				{
					variant: 'MAIN',
					link: 'https://m.media-amazon.com/images/I/51DZzp3w3vL.jpg',
					height: 1500,
					width: 1500,
				},
				{
					variant: 'MAIN',
					link: 'https://m.media-amazon.com/images/I/51DZzp3w3vL._SL75_.jpg',
					height: 75,
					width: 75,
				},
				{
					variant: 'PT02',
					link: 'https://m.media-amazon.com/images/I/61uk-Dbk1bL.jpg',
					height: 1000,
					width: 1000,
				},
			],
		},
	],
};

export const magentoProduct = {
	id: 1,
	sku: '24-MB01',
	name: 'Joust Duffle Bag',
	status: 1,
	type_id: 'simple',
	media_gallery_entries: [
		{
			id: 1,
			media_type: 'image',
			label: null,
			position: 1,
			disabled: false,
			types: ['image', 'small_image', 'thumbnail'],
			file: '/m/b/mb01-blue-0.jpg',
		},
		{
			id: 2,
			media_type: 'image',
			label: null,
			position: 2,
			disabled: false,
			types: [],
			file: '/m/b/mb01-blue-1.jpg',
		},
	],
};

/** What each store's images field should become, in order. */
export const EXPECTED_ADDRESSES = {
	shopify: shopifyProduct.images.map((image) => image.src),
	wooCommerce: wooCommerceProduct.images.map((image) => image.src),
	bigCommerce: bigCommerceProduct.images.map((image) => image.url_zoom),
	amazon: [
		'https://m.media-amazon.com/images/I/51DZzp3w3vL.jpg',
		'https://m.media-amazon.com/images/I/41aSpSTIcDL.jpg',
		'https://m.media-amazon.com/images/I/61uk-Dbk1bL.jpg',
	],
};
