// The spec's A+ modules table (service-api.md), as the items show it: the purpose starts with a
// capital and says "or" where the spec writes "/"; the size is the spec's default target size.
export const SPEC_MODULES: Array<[string, string, number, number]> = [
	['hero', 'Premium first-screen key visual', 1464, 600],
	['hero970', 'Standard first-screen key visual', 970, 600],
	['core', 'Core selling points', 970, 600],
	['usage', 'Usage scenes', 970, 600],
	['angles', 'Multiple angles', 970, 600],
	['mood', 'Scene atmosphere', 970, 600],
	['detail', 'Product details', 970, 600],
	['brand', 'Brand story', 463, 625],
	['size', 'Size, capacity or clothing size', 220, 220],
	['compare', 'Effect comparison', 150, 300],
	['specs', 'Detailed specifications or parameter table', 970, 600],
	['process', 'Manufacturing process', 970, 600],
	['accessories', 'Accessories or gifts', 970, 600],
	['series', 'Product series display', 970, 600],
	['ingredients', 'Ingredients', 970, 600],
	['care', 'Usage and care instructions', 970, 600],
	['tips', 'Usage suggestions', 600, 450],
];
