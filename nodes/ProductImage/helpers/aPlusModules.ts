/** The A+ modules of the service's table, with their purpose and default target size. */
export interface APlusModule {
	id: string;
	purpose: string;
	width: number;
	height: number;
}

export const A_PLUS_MODULES: readonly APlusModule[] = [
	{ id: 'hero', purpose: 'Premium first-screen key visual', width: 1464, height: 600 },
	{ id: 'hero970', purpose: 'Standard first-screen key visual', width: 970, height: 600 },
	{ id: 'core', purpose: 'Core selling points', width: 970, height: 600 },
	{ id: 'usage', purpose: 'Usage scenes', width: 970, height: 600 },
	{ id: 'angles', purpose: 'Multiple angles', width: 970, height: 600 },
	{ id: 'mood', purpose: 'Scene atmosphere', width: 970, height: 600 },
	{ id: 'detail', purpose: 'Product details', width: 970, height: 600 },
	{ id: 'brand', purpose: 'Brand story', width: 463, height: 625 },
	{ id: 'size', purpose: 'Size, capacity or clothing size', width: 220, height: 220 },
	{ id: 'compare', purpose: 'Effect comparison', width: 150, height: 300 },
	{ id: 'specs', purpose: 'Detailed specifications or parameter table', width: 970, height: 600 },
	{ id: 'process', purpose: 'Manufacturing process', width: 970, height: 600 },
	{ id: 'accessories', purpose: 'Accessories or gifts', width: 970, height: 600 },
	{ id: 'series', purpose: 'Product series display', width: 970, height: 600 },
	{ id: 'ingredients', purpose: 'Ingredients', width: 970, height: 600 },
	{ id: 'care', purpose: 'Usage and care instructions', width: 970, height: 600 },
	{ id: 'tips', purpose: 'Usage suggestions', width: 600, height: 450 },
];

export const A_PLUS_MODULE_IDS = A_PLUS_MODULES.map((module) => module.id);

export function findAPlusModule(id: string): APlusModule | undefined {
	return A_PLUS_MODULES.find((module) => module.id === id);
}

function greatestCommonDivisor(a: number, b: number): number {
	return b === 0 ? a : greatestCommonDivisor(b, a % b);
}

/** `970×600` becomes `97:60`: the `size` a following generation request takes. */
export function aspectRatioOf(module: APlusModule): string {
	const divisor = greatestCommonDivisor(module.width, module.height);
	return `${module.width / divisor}:${module.height / divisor}`;
}
