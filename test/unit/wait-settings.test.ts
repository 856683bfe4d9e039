import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readWaitSettings } from '../../nodes/ProductImage/helpers/waitForTask';

/** The item's Options as a node of this version reads them. */
function settings(typeVersion: number, options: IDataObject) {
	const context = {
		getNode: () => ({ typeVersion, name: 'Product Image', parameters: {} }),
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name === 'options' ? options : fallback,
	} as unknown as IExecuteFunctions;
	return readWaitSettings(context, 0);
}

test('version 3: Polling alone chooses the rhythm; a Poll Interval keeps the shown Adaptive', () => {
	expect(settings(3, { pollInterval: 2 })).toMatchObject({ polling: 'adaptive', pollInterval: 2 });
	expect(settings(3, {}).polling).toBe('adaptive');
	expect(settings(3, { polling: 'fixed' }).polling).toBe('fixed');
});

test.each([1, 2])(
	'version %i: a Poll Interval without Polling keeps Fixed Interval, as saved workflows expect',
	(typeVersion) => {
		expect(settings(typeVersion, { pollInterval: 2 }).polling).toBe('fixed');
		expect(settings(typeVersion, {}).polling).toBe('adaptive');
		expect(settings(typeVersion, { polling: 'adaptive', pollInterval: 2 }).polling).toBe(
			'adaptive',
		);
	},
);
