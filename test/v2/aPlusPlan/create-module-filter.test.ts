import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { A_PLUS_MODULES } from '../../../nodes/ProductImage/helpers/aPlus';
import { ProductImage } from '../../../nodes/ProductImage/ProductImage.node';

// n8n 2.41's editor filters a list by the entry's title alone, ignoring case (its parameter input
// sets `filterable` and no filter method): what the output's 'module' and 'target_size' hold must
// be in the title for a user to find the module by it.

const modules = new ProductImage().description.properties.find(
	(property: INodeProperties) =>
		property.name === 'modules' &&
		JSON.stringify(property.displayOptions?.show?.['@version']) !== '[1]',
) as INodeProperties;
const entries = modules.options as INodePropertyOptions[];

const filter = (typed: string) =>
	entries.filter((entry) => entry.name.toLowerCase().includes(typed.toLowerCase()));

test("typing 'hero' finds the premium first-screen key visual", () => {
	expect(filter('hero').map((entry) => entry.value)).toEqual(
		expect.arrayContaining(['hero', 'hero970']),
	);
	expect(filter('hero').find((entry) => entry.value === 'hero')?.name).toBe(
		'Premium First-Screen Key Visual (Hero, 1464x600)',
	);
});

test.each(A_PLUS_MODULES.map((module) => [module.id, `${module.width}x${module.height}`]))(
	"the module '%s' is found by its code and by its 'target_size' %s",
	(id, targetSize) => {
		expect(filter(id).map((entry) => entry.value)).toContain(id);
		expect(filter(targetSize).map((entry) => entry.value)).toContain(id);
	},
);
