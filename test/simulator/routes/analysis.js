// @ts-check
'use strict';

const crypto = require('node:crypto');
const { errorReply, resultReply } = require('../reply');
const { checkUrlList, checkOptionalStrings, parseJsonObject } = require('../validate');

/** @typedef {import('../reply').Context} Context */

const CATEGORIES = [
	'Home & Kitchen',
	'Beauty & Personal Care',
	'Sports & Outdoors',
	'Electronics',
	'Clothing & Accessories',
];
const COLORS = ['matte black', 'white', 'silver', 'navy blue', 'sage green'];
const MATERIALS = [
	'stainless steel',
	'BPA-free plastic',
	'cotton blend',
	'aluminium alloy',
	'ceramic',
];

/**
 * Picks stable values from the input so the same request yields the same analysis.
 * @template T
 * @param {T[]} list
 * @param {Buffer} hash
 * @param {number} at
 */
const pick = (list, hash, at) => list[hash[at] % list.length];

/**
 * POST /v1/open/product-analysis
 * @param {Context} ctx
 */
function analysis(ctx) {
	if (ctx.bodyTruncated) return errorReply(ctx, 413, 'Request body too large');
	const parsed = parseJsonObject(ctx.body);
	if (!parsed.ok) return errorReply(ctx, 400, parsed.message);
	const body = parsed.value;
	const problem =
		checkUrlList(body.image_urls, 'image_urls', 1, 16) ||
		checkOptionalStrings(body, ['product_name']);
	if (problem) return errorReply(ctx, 400, problem);

	const productName =
		typeof body.product_name === 'string' && body.product_name.trim()
			? body.product_name.trim()
			: 'Unnamed product';
	const hash = crypto
		.createHash('sha256')
		.update(`${productName}\n${JSON.stringify(body.image_urls)}`)
		.digest();
	const category = pick(CATEGORIES, hash, 0);
	const color = pick(COLORS, hash, 1);
	const material = pick(MATERIALS, hash, 2);
	const attributes = [
		{ name: 'color', value: color, evidence: 'visible' },
		{
			name: 'material',
			value: material,
			evidence: ctx.state.config.analysisInferred ? 'inferred' : 'visible',
		},
		{ name: 'brand', value: productName, evidence: 'provided' },
	];
	const sellingPoints = [
		`Durable ${material} construction`,
		`Clean ${color} finish that suits most settings`,
		'Compact, easy to store and carry',
	];
	const formattedText = [
		`# ${productName}`,
		`Category: ${category}`,
		'',
		'## Attributes',
		...attributes.map((a) => `- ${a.name}: ${a.value} (${a.evidence})`),
		'',
		'## Selling points',
		...sellingPoints.map((p) => `- ${p}`),
		'',
		`Analyzed ${/** @type {unknown[]} */ (body.image_urls).length} image(s). Confirm inferred attributes before use.`,
	].join('\n');

	const text = ctx.state.config.analysisText;
	return resultReply(ctx, {
		analysis: { product_name: productName, category, attributes, selling_points: sellingPoints },
		...(text === 'output_text' ? {} : { formattedText }),
		...(text === 'formattedText' ? {} : { output_text: formattedText }),
	});
}

module.exports = { analysis };
