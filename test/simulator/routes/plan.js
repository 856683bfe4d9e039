// @ts-check
'use strict';

const { errorReply, resultReply } = require('../reply');
const { checkUrlList, checkOptionalStrings, parseJsonObject } = require('../validate');

/** @typedef {import('../reply').Context} Context */

/** The A+ module identifiers of the service, with their purpose and default target size. */
const MODULES = /** @type {Record<string, {title: string, size: string}>} */ ({
	hero: { title: 'Premium first-screen key visual', size: '1464x600' },
	hero970: { title: 'Standard first-screen key visual', size: '970x600' },
	core: { title: 'Core selling points', size: '970x600' },
	usage: { title: 'Usage scenes', size: '970x600' },
	angles: { title: 'Multiple angles', size: '970x600' },
	mood: { title: 'Scene atmosphere', size: '970x600' },
	detail: { title: 'Product details', size: '970x600' },
	brand: { title: 'Brand story', size: '463x625' },
	size: { title: 'Size / capacity / clothing size', size: '220x220' },
	compare: { title: 'Effect comparison', size: '150x300' },
	specs: { title: 'Detailed specifications', size: '970x600' },
	process: { title: 'Manufacturing process', size: '970x600' },
	accessories: { title: 'Accessories and gifts', size: '970x600' },
	series: { title: 'Product series display', size: '970x600' },
	ingredients: { title: 'Ingredients', size: '970x600' },
	care: { title: 'Usage and care instructions', size: '970x600' },
	tips: { title: 'Usage suggestions', size: '600x450' },
});

const MODULE_IDS = Object.keys(MODULES);

/** @param {unknown} modules */
function checkModules(modules) {
	if (!Array.isArray(modules) || modules.length === 0) {
		return `modules must be an array of at least 1 A+ module identifier (one of: ${MODULE_IDS.join(', ')})`;
	}
	const bad = modules.findIndex((m) => typeof m !== 'string' || !Object.hasOwn(MODULES, m));
	if (bad >= 0)
		return `modules[${bad}] ${JSON.stringify(modules[bad])} is not an A+ module identifier (one of: ${MODULE_IDS.join(', ')})`;
	return undefined;
}

/**
 * POST /v1/open/aplus/plans
 * @param {Context} ctx
 */
function plan(ctx) {
	if (ctx.bodyTruncated) return errorReply(ctx, 413, 'Request body too large');
	const parsed = parseJsonObject(ctx.body);
	if (!parsed.ok) return errorReply(ctx, 400, parsed.message);
	const body = parsed.value;
	const problem =
		checkUrlList(body.image_urls, 'image_urls', 1, Infinity) ||
		checkModules(body.modules) ||
		checkOptionalStrings(body, ['product_description', 'platform', 'market', 'language']);
	if (problem) return errorReply(ctx, 400, problem);

	const description =
		typeof body.product_description === 'string' && body.product_description.trim()
			? body.product_description.trim().split('\n')[0].slice(0, 120)
			: 'the product';
	const platform = typeof body.platform === 'string' && body.platform ? body.platform : 'amazon';
	const market = typeof body.market === 'string' && body.market ? body.market : 'US';
	const language = typeof body.language === 'string' && body.language ? body.language : 'en-US';

	const modules = /** @type {string[]} */ (body.modules).map((id) => ({
		module: id,
		title: MODULES[id].title,
		recommended_prompt:
			`A+ module "${id}" (${MODULES[id].title}, ${MODULES[id].size}) for ${description}: ` +
			`show the product from the reference images, keep its shape and colors exact, copy in ${language}.`,
	}));

	return resultReply(ctx, {
		modules,
		global_style: `Clean studio light, neutral warm background, consistent soft shadows across all modules; typography sans-serif; market ${market}.`,
		notes: `Check every product fact against the listing before publishing; follow ${platform} A+ content rules (no prices, no competitor references, no unverifiable claims).`,
	});
}

module.exports = { plan };
