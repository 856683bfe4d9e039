import { ProductImage } from '../../nodes/ProductImage/ProductImage.node';
import { NodeHelpers, type INodeProperties } from 'n8n-workflow';

const description = new ProductImage().description;

function subtitleFor(resource: string, operation: string): string {
	const expression = String(description.subtitle)
		.replace(/^=\{\{/, '')
		.replace(/\}\}$/, '');
	// eslint-disable-next-line @typescript-eslint/no-implied-eval
	return new Function('$parameter', `return ${expression}`)({ resource, operation }) as string;
}

test('the canvas subtitle reads as words for every operation', () => {
	expect(subtitleFor('image', 'generateAndWait')).toBe('Generate and Wait · Image');
	expect(subtitleFor('image', 'generate')).toBe('Submit Generation (No Wait) · Image');
	expect(subtitleFor('aPlusPlan', 'create')).toBe('Create · A+ Plan');
	expect(subtitleFor('task', 'wait')).toBe('Wait for Task · Task');
});

test('the output-field and images-output options show only while images are downloaded', () => {
	const options = description.properties.find(
		(property) =>
			property.name === 'options' &&
			property.displayOptions?.show?.operation?.includes('generateAndWait'),
	);
	const children = (options?.options ?? []) as INodeProperties[];
	const shown = (downloadImages: boolean) => {
		const values = { resource: 'image', operation: 'generateAndWait', options: { downloadImages } };
		return children
			.filter((child) =>
				NodeHelpers.displayParameterPath(values, child, 'options', { typeVersion: 1 }, description),
			)
			.map((child) => child.name);
	};
	expect(shown(true)).toEqual(
		expect.arrayContaining(['binaryPropertyName', 'imagesOutput', 'maxWaitTime']),
	);
	expect(shown(false)).not.toContain('binaryPropertyName');
	expect(shown(false)).not.toContain('imagesOutput');
	expect(shown(false)).toContain('maxWaitTime');
});

test("resources are listed in the order of the service's chain", () => {
	const resource = description.properties.find((property) => property.name === 'resource');
	const names = (resource?.options ?? []).map((option) => (option as { name: string }).name);
	expect(names).toEqual(['Image', 'Analysis', 'A+ Plan', 'Task']);
});
