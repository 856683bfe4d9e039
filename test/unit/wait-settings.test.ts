import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';
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

test('the current version: Polling alone chooses the rhythm; a Poll Interval keeps the shown Adaptive', () => {
	expect(settings(CURRENT, { pollInterval: 2 })).toMatchObject({
		polling: 'adaptive',
		pollInterval: 2,
	});
	expect(settings(CURRENT, {}).polling).toBe('adaptive');
	expect(settings(CURRENT, { polling: 'fixed' }).polling).toBe('fixed');
});

test('version 1: a Poll Interval without Polling keeps Fixed Interval, as saved workflows expect', () => {
	expect(settings(1, { pollInterval: 2 }).polling).toBe('fixed');
	expect(settings(1, {}).polling).toBe('adaptive');
	expect(settings(1, { polling: 'adaptive', pollInterval: 2 }).polling).toBe('adaptive');
});
