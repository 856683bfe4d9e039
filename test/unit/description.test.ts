import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import type { INodeProperties } from 'n8n-workflow';
import { WAIT_DEFAULTS } from '../../nodes/ProductImage/helpers/waitSettings';

const description = new ProductImage().description;

/** The defaults of the `options` collection shown for one operation, by option name. */
function readParameterDefaults(
	properties: INodeProperties[],
	resource: string,
	operation: string,
): Record<string, unknown> {
	const options = properties.find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.resource?.includes(resource) &&
			property.displayOptions?.show?.operation?.includes(operation),
	);
	const children = (options?.options ?? []) as INodeProperties[];
	return Object.fromEntries(children.map((child) => [child.name, child.default]));
}

function subtitleFor(resource: string, operation: string): string {
	const expression = String(description.subtitle).replace(/^=\{\{/, '').replace(/\}\}$/, '');
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	return new Function('$parameter', `return ${expression}`)({ resource, operation }) as string;
}

test('the canvas subtitle reads as words for every operation', () => {
	expect(subtitleFor('image', 'generateAndWait')).toBe('Generate and Wait · Image');
	expect(subtitleFor('image', 'generate')).toBe('Submit Generation (No Wait) · Image');
	expect(subtitleFor('aPlusPlan', 'create')).toBe('Create · A+ Plan');
	expect(subtitleFor('task', 'wait')).toBe('Wait for Task · Task');
});

test("the wait options' shown defaults are the ones the node applies when an option is absent", () => {
	const defaults = readParameterDefaults(description.properties, 'image', 'generateAndWait');
	for (const [name, value] of Object.entries(WAIT_DEFAULTS)) expect(defaults[name]).toEqual(value);
});
