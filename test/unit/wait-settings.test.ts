import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';
import { readWaitSettings } from '../../nodes/ProductImage/helpers/waitForTask';
import { readWaitSettingsAsSaved } from '../../nodes/ProductImage/v1/task';
import { WAIT_OPTIONS } from '../../nodes/ProductImage/v2/reading';

/** The item's Options as a node of this version reads them. */
function settings(typeVersion: number, options: IDataObject) {
	const context = {
		getNode: () => ({ typeVersion, name: 'Product Image', parameters: {} }),
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name === 'options' ? options : fallback,
	} as unknown as IExecuteFunctions;
	return typeVersion === 1
		? readWaitSettingsAsSaved(context, 0)
		: readWaitSettings(context, 0, WAIT_OPTIONS);
}

/** The current version keeps the wait settings in Options → Waiting, the file settings in Output Files. */
const waiting = (values: IDataObject) => ({ waiting: { value: values } });

test('the current version: Status Checks alone chooses the rhythm; a Check Interval keeps the shown Adaptive', () => {
	expect(settings(CURRENT, waiting({ pollInterval: 2 }))).toMatchObject({
		polling: 'adaptive',
		pollInterval: 2,
	});
	expect(settings(CURRENT, {}).polling).toBe('adaptive');
	expect(settings(CURRENT, waiting({ polling: 'fixed' })).polling).toBe('fixed');
});

test('the current version reads each setting of Waiting and Output Files under the name every version stores', () => {
	const read = settings(CURRENT, {
		...waiting({ initialDelay: 1, maxWaitTime: 30, onTimeout: 'outputTaskState' }),
		outputFiles: { value: { downloadImages: false, binaryPropertyName: 'image' } },
	});
	expect(read).toMatchObject({
		initialDelay: 1,
		initialDelayGiven: true,
		maxWaitTime: 30,
		onTimeout: 'outputTaskState',
		downloadImages: false,
		binaryPropertyName: 'image',
	});
	expect(settings(CURRENT, {})).toMatchObject({ downloadImages: true, binaryPropertyName: 'data' });
});

test('version 1: a Poll Interval without Polling keeps Fixed Interval, as saved workflows expect', () => {
	expect(settings(1, { pollInterval: 2 }).polling).toBe('fixed');
	expect(settings(1, {}).polling).toBe('adaptive');
	expect(settings(1, { polling: 'adaptive', pollInterval: 2 }).polling).toBe('adaptive');
});
