import { labelOf, panelProperty, propertyIn } from '../../nodes/ProductImage/helpers/parameters';
import { generationProperties } from '../../nodes/ProductImage/v2/descriptions/generation.descriptions';

// Error texts quote the panel's labels, read from the description by a parameter's name, so a
// renamed label flows through. A name the description does not hold is the node's own mistake:
// it stops at once and says which name, instead of an undefined label further on.

test('a list inside a bundle inside Product Details is found by its name, the list rather than its bundle', () => {
	const platform = propertyIn(generationProperties, 'platform');
	expect(platform.type).toBe('options');
	expect(labelOf(generationProperties, 'platform')).toBe('Platform');
	expect(labelOf(generationProperties, 'customPlatform')).toBe('Other Platform');
});

test.each([
	['propertyIn', () => propertyIn(generationProperties, 'sizes')],
	['labelOf', () => labelOf(generationProperties, 'sizes')],
	['panelProperty', () => panelProperty(generationProperties, 'sizes')],
])('%s: a name the description does not hold is an error naming it', (_, lookUp) => {
	expect(lookUp).toThrow(new Error('No parameter "sizes" in this description'));
});
