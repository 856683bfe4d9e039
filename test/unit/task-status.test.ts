import type { Task } from '../../nodes/ProductImage/helpers/task';
import { classifyTask } from '../../nodes/ProductImage/helpers/task';

const images = { images: [{ url: 'https://x.test/a.png' }] };
const completedAt = '2026-11-23T10:00:05Z';

describe('a finished word with images ends the wait, in any case and spelling', () => {
	test.each([
		// the spec's word
		'succeeded',
		'SUCCEEDED',
		'succeed',
		// success
		'success',
		'Success',
		'successful',
		'SUCCESSFUL',
		// completed
		'completed',
		'COMPLETED',
		'complete',
		'Complete',
		// done / finished / ready
		'done',
		'Done',
		'finished',
		'FINISHED',
		'ready',
		'Ready',
		'ok',
		' completed ',
	])('%j', (status) => {
		expect(classifyTask({ status, result: images, completed_at: completedAt })).toBe('succeeded');
		// without a completion time too: the word says it
		expect(classifyTask({ status, result: images })).toBe('succeeded');
		// a leftover error note does not take the images away
		expect(classifyTask({ status, result: images, error: { message: 'retried once' } })).toBe(
			'succeeded',
		);
	});
});

describe('a working word keeps the wait going', () => {
	test.each([
		'submitted',
		'created',
		'accepted',
		'queued',
		'QUEUED',
		'in_queue',
		'IN_QUEUE',
		'pending',
		'Pending',
		'waiting',
		'scheduled',
		'starting',
		'started',
		'running',
		'RUNNING',
		'processing',
		'Processing',
		'in_progress',
		'IN_PROGRESS',
		'in-progress',
		'In Progress',
		'generating',
	])('%j', (status) => {
		expect(classifyTask({ status })).toBe('pending');
		expect(classifyTask({ status, error: null, result: null })).toBe('pending');
		// a working word with a completion time but nothing else is not taken for finished
		expect(classifyTask({ status, completed_at: completedAt })).toBe('pending');
		// preview images without a completion time are not the result
		expect(classifyTask({ status, result: images })).toBe('pending');
	});
});

describe('a failure word fails, in any case', () => {
	test.each([
		'failed',
		'FAILED',
		'Failure',
		'fail',
		'error',
		'errored',
		'cancelled',
		'CANCELED',
		'aborted',
		'expired',
		'timed_out',
		'Timed Out',
		'rejected',
	])('%j', (status) => {
		expect(classifyTask({ status })).toBe('failed');
		expect(classifyTask({ status, result: images, completed_at: completedAt })).toBe('failed');
	});
});

test('any word with result images, a completion time and no error is finished', () => {
	for (const status of [
		'generated',
		'FINALIZED',
		'image_ready',
		'archived',
		'processing',
		'in_progress',
	]) {
		const task: Task = { status, result: images, completed_at: completedAt, error: null };
		expect(classifyTask(task)).toBe('succeeded');
		expect(classifyTask({ ...task, error: { code: null, message: '' } })).toBe('succeeded');
		// the same with an error that says something is a failure
		expect(classifyTask({ ...task, error: { code: 'nsfw', message: 'Blocked' } })).toBe('failed');
	}
});

test('a finished word without images is finished (the result step reports the missing images)', () => {
	for (const status of ['completed', 'DONE', 'success']) {
		expect(classifyTask({ status })).toBe('succeeded');
		expect(classifyTask({ status, result: { images: [] }, completed_at: completedAt })).toBe(
			'succeeded',
		);
	}
	// an unknown word with a completion time has ended too; without one it may still be working
	expect(classifyTask({ status: 'finalized', completed_at: completedAt })).toBe('succeeded');
	expect(classifyTask({ status: 'finalized' })).toBe('pending');
});
