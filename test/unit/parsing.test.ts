import {
	aspectRatioOf,
	A_PLUS_MODULES,
	findAPlusModule,
	planModuleItems,
} from '../../nodes/ProductImage/helpers/aPlus';
import { chooseMimeType, fileNameFromAddress } from '../../nodes/ProductImage/helpers/download';
import { splitImageUrls } from '../../nodes/ProductImage/helpers/imageInputs';
import { splitCommaSeparated } from '../../nodes/ProductImage/helpers/imageInputs';
import {
	classifyTask,
	taskFailureReason,
	taskIdStaysInPath,
} from '../../nodes/ProductImage/helpers/task';
import { isHttpUrl } from '../../nodes/ProductImage/transport/send';
import { unwrapEnvelope } from '../../nodes/ProductImage/transport/request';

describe('splitImageUrls', () => {
	test.each([
		['https://a/1.png, https://a/2.png', ['https://a/1.png', 'https://a/2.png']],
		['https://a/1.png\n\nhttps://a/2.png\n', ['https://a/1.png', 'https://a/2.png']],
		[
			['https://a/1.png', ' https://a/2.png '],
			['https://a/1.png', 'https://a/2.png'],
		],
		[['https://a/1.png,https://a/2.png'], ['https://a/1.png,https://a/2.png']],
		[
			'https://cdn.test/upload/w_400,h_300/x.jpg, https://cdn.test/upload/c_fill,g_auto/y.jpg',
			['https://cdn.test/upload/w_400,h_300/x.jpg', 'https://cdn.test/upload/c_fill,g_auto/y.jpg'],
		],
		[
			'https://cdn.test/a,b.jpg\r\nHTTP://cdn.test/c.jpg',
			['https://cdn.test/a,b.jpg', 'HTTP://cdn.test/c.jpg'],
		],
		[['https://cdn.test/upload/w_400,h_300/x.jpg'], ['https://cdn.test/upload/w_400,h_300/x.jpg']],
		['', []],
		[undefined, []],
		[null, []],
	])('%j', (input, expected) => {
		expect(splitImageUrls(input)).toEqual(expected);
	});
});

test('isHttpUrl accepts http(s) only', () => {
	expect(isHttpUrl('https://x.test/a.png')).toBe(true);
	expect(isHttpUrl('http://127.0.0.1:8080/a')).toBe(true);
	for (const bad of [
		'file:///etc/passwd',
		'javascript:alert(1)',
		'data:image/png;base64,AA',
		'x.test/a.png',
		'',
	]) {
		expect(isHttpUrl(bad)).toBe(false);
	}
});

test('splitCommaSeparated trims and drops empty names', () => {
	expect(splitCommaSeparated(' data, data_1 ,, ')).toEqual(['data', 'data_1']);
	expect(splitCommaSeparated(undefined)).toEqual([]);
});

describe('classifyTask', () => {
	test.each([
		['succeeded', null, 'succeeded'],
		['SUCCEEDED', undefined, 'succeeded'],
		['submitted', null, 'pending'],
		['queued', null, 'pending'],
		['running', null, 'pending'],
		['some_new_status', null, 'pending'],
		['failed', null, 'failed'],
		['cancelled', null, 'failed'],
		['canceled', null, 'failed'],
		['expired', null, 'failed'],
		['timeout', null, 'failed'],
		['rejected', null, 'failed'],
		['error', null, 'failed'],
		['processing', { code: 'x', message: 'boom' }, 'failed'],
		['processing', 'boom', 'failed'],
		['processing', { code: null, message: '' }, 'pending'],
		['running', {}, 'pending'],
		['running', { code: 0, message: ' ', details: [] }, 'pending'],
		['running', { details: { reason: 'quota' } }, 'failed'],
		['succeeded', { code: null, message: '' }, 'succeeded'],
		['processing', {}, 'pending'],
	])('status %j with error %j is %s', (status, error, expected) => {
		expect(classifyTask({ status, error })).toBe(expected);
	});

	test('a succeeded task with images succeeds whatever its error field holds', () => {
		const result = { images: [{ url: 'https://x.test/a.png' }] };
		expect(classifyTask({ status: 'succeeded', result, error: { message: 'retried once' } })).toBe(
			'succeeded',
		);
		expect(
			classifyTask({ status: 'succeeded', result: { images: [] }, error: { message: 'no image' } }),
		).toBe('failed');
	});

	test('the reason of a failure comes from whichever field holds it', () => {
		expect(
			taskFailureReason({ status: 'failed', error: { code: 'nsfw', message: 'Blocked' } }),
		).toBe('Blocked (code nsfw)');
		expect(taskFailureReason({ status: 'failed', error: { detail: 'Too dark' } })).toBe('Too dark');
		expect(taskFailureReason({ status: 'failed', error: null })).toBe('the service gave no reason');
	});
});

test('taskIdStaysInPath refuses anything that could leave the request path', () => {
	expect(taskIdStaysInPath('task_8f2a1c')).toBe(true);
	expect(taskIdStaysInPath('task-1.2:3')).toBe(true);
	for (const bad of ['task/1', '../x', 'task_1..2', 'task?x', 'task#1', '%2e%2e', '', ' task']) {
		expect(taskIdStaysInPath(bad)).toBe(false);
	}
});

describe('unwrapEnvelope', () => {
	test('takes data when it is an object', () => {
		expect(unwrapEnvelope({ code: 200, data: { a: 1 }, request_id: 'req_1' })).toEqual({ a: 1 });
	});
	test('takes the top level without the envelope fields when results sit outside data', () => {
		expect(
			unwrapEnvelope({ code: 200, analysis: { x: 1 }, formattedText: 't', request_id: 'req_1' }),
		).toEqual({
			analysis: { x: 1 },
			formattedText: 't',
		});
	});
	test('leaves out every envelope field the spec or a variant of it uses', () => {
		expect(
			unwrapEnvelope({
				code: 200,
				request_id: 'req_1',
				requestId: 'req_1',
				message: 'ok',
				msg: 'ok',
				success: true,
				plan: { modules: [] },
			}),
		).toEqual({ plan: { modules: [] } });
	});
	test.each([
		['null', null],
		['a list', ['a']],
		['text', 'ready'],
	])('takes the top level when data is %s', (_, data) => {
		expect(unwrapEnvelope({ code: 200, data, analysis: { x: 1 } })).toEqual({ analysis: { x: 1 } });
	});
	test('is empty for anything that is not an object', () => {
		expect(unwrapEnvelope('text')).toEqual({});
		expect(unwrapEnvelope([1])).toEqual({});
		expect(unwrapEnvelope(null)).toEqual({});
		expect(unwrapEnvelope(undefined)).toEqual({});
	});
});

describe('A+ modules', () => {
	test('the table holds the 17 modules of the spec with their sizes', () => {
		expect(A_PLUS_MODULES).toHaveLength(17);
		expect(findAPlusModule('brand')).toMatchObject({ width: 463, height: 625 });
	});
	test.each([
		['hero', '61:25'],
		['hero970', '97:60'],
		['size', '1:1'],
		['tips', '4:3'],
		['compare', '1:2'],
	])('%s has aspect ratio %s', (id, ratio) => {
		expect(aspectRatioOf(findAPlusModule(id)!)).toBe(ratio);
	});

	test('planned modules are matched by their own id field, else by position', () => {
		const plan = {
			modules: [{ type: 'size', recommended_prompt: 'p1' }, { recommended_prompt: 'p2' }],
			global_style: 'calm',
			notes: 'check claims',
		};
		const items = planModuleItems(plan, ['hero', 'core']);
		expect(items.map((item) => item.module)).toEqual(['hero', 'core']);
		const named = planModuleItems(plan, ['core', 'size']);
		expect(named[0]).toMatchObject({
			module: 'size',
			aspect_ratio: '1:1',
			global_style: 'calm',
			notes: 'check claims',
		});
		expect(named[1]).toMatchObject({ module: 'size', recommended_prompt: 'p2' });
	});
});

describe('download naming', () => {
	test('the file name is the last segment of the decoded asset id', () => {
		expect(
			fileNameFromAddress('https://h/v1/open/assets/generated%2Fopen-result%2Ftask_1-0.png'),
		).toBe('task_1-0.png');
		expect(fileNameFromAddress('https://cdn/bucket/x.webp?sig=1')).toBe('x.webp');
		expect(fileNameFromAddress('https://cdn/')).toBeUndefined();
	});
	test('the MIME type comes from the reply, else from the extension', () => {
		expect(chooseMimeType('image/webp', 'a.png')).toBe('image/webp');
		expect(chooseMimeType('application/octet-stream', 'a.jpg')).toBe('image/jpeg');
		expect(chooseMimeType(undefined, 'a.png')).toBe('image/png');
		expect(chooseMimeType(undefined, 'blob')).toBe('application/octet-stream');
	});
});
