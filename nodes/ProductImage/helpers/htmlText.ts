const ENTITIES: Record<string, string> = {
	amp: '&',
	lt: '<',
	gt: '>',
	quot: '"',
	apos: "'",
	nbsp: ' ',
};

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
		if (code[0] === '#') {
			const point =
				code[1] === 'x' || code[1] === 'X'
					? parseInt(code.slice(2), 16)
					: parseInt(code.slice(1), 10);
			return Number.isFinite(point) && point > 0 && point <= 0x10ffff
				? String.fromCodePoint(point)
				: whole;
		}
		return ENTITIES[code.toLowerCase()] ?? whole;
	});
}

const looksLikeHtml = (text: string) => /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>/i.test(text);

/**
 * A store's product description (Shopify's body_html) as plain text: block ends become line
 * breaks, list items bullets, tags and scripts go, entities are decoded. Text without tags is
 * returned as it came.
 */
export function htmlToText(text: string): string {
	if (!looksLikeHtml(text)) return text;
	return decodeEntities(
		text
			.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1\s*>/gi, '')
			.replace(/<!--[\s\S]*?-->/g, '')
			.replace(/<li[^>]*>/gi, '\n- ')
			.replace(/<br\s*\/?>/gi, '\n')
			.replace(/<\/(p|div|ul|ol|h[1-6]|tr|table|section|article)\s*>/gi, '\n')
			.replace(/<[^>]+>/g, ''),
	)
		.replace(/[ \t\f\v\u00a0]+/g, ' ')
		.replace(/ *\n */g, '\n')
		.replace(/\n{3,}/g, '\n\n')
		.trim();
}
