import { useSimulator } from '../harness/simulator';
import { TEST_API_KEY } from '../harness/simulator';
import { generateAndWait, requestsOn, run, seedTask, taskGet, FAULT_SIMULATOR } from './faultCase';
import { finishCase } from './faultTable';

// Replies in shapes the spec does not show: what is readable arrives, and a finished task's result
// that is not is handed over in the error, redacted, with its task id.

const simulator = useSimulator(FAULT_SIMULATOR);

test.each([
	[
		'bare-string result images that are paths on the service',
		{ resultImages: 'strings', resultAddresses: 'relative' },
		'task: result.images ["/v1/open/assets/…"]',
	],
	[
		'result images with the address under href',
		{ resultAddressKey: 'href' },
		'task: result.images [{href}]',
	],
	['a task result beside data', { resultPlacement: 'besideData' }, 'task: {code, data, result}'],
	[
		'a JPEG result served as application/octet-stream',
		{ imageFormat: 'jpeg' },
		'asset: JPEG bytes, application/octet-stream',
	],
] as const)('%s: the images arrive', async (label, config, injected) => {
	const sim = simulator();
	sim.configure(config);
	if ('imageFormat' in config)
		sim.addFault({ route: 'asset', contentType: 'application/octet-stream' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error).toBeUndefined();
	expect(result.items).toHaveLength(1);
	expect(result.items[0].binary?.data.mimeType).toBe(
		'imageFormat' in config ? 'image/jpeg' : 'image/png',
	);
	expect(requestsOn(sim, 'asset')).toHaveLength(1);
	finishCase(sim, result, { case: label, operation: 'image/generateAndWait', injected });
});

test('a finished task whose images have no address: the error quotes the result, once polled', async () => {
	const sim = simulator();
	sim.configure({ resultImages: 'unreadable' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe('The finished task holds no downloadable image URLs [item 0]');
	expect(result.error?.description).toContain('"storage_key":"internal/generated/open-result/');
	expect(result.error?.description).not.toContain('Wait for Completion');
	expect(requestsOn(sim, 'task')).toHaveLength(1);
	expect(requestsOn(sim, 'asset')).toHaveLength(0);
	finishCase(sim, result, {
		case: 'finished task, result images without an address',
		operation: 'image/generateAndWait',
		injected: 'task: result.images [{asset_id, storage_key}]',
	});
});

test('a finished task whose unreadable result holds the key: quoted in the error without it', async () => {
	const sim = simulator();
	sim.configure({ resultImages: 'unreadableWithKey' });
	const result = await run(sim, { nodes: [{ parameters: generateAndWait() }] });

	expect(result.error?.message).toBe('The finished task holds no downloadable image URLs [item 0]');
	expect(result.error?.description).toContain('"access_token":"[redacted]"');
	expect(result.error?.context?.serviceReply).toContain('"access_token":"[redacted]"');
	finishCase(sim, result, {
		case: 'finished task, its unreadable result holding the key',
		operation: 'image/generateAndWait',
		injected: 'task: result.images [{asset_id, storage_key, access_token: the key}]',
	});
});

test('a task reply without a status on Task → Get: the error quotes the reply and names the task', async () => {
	const sim = simulator();
	const { taskId } = await seedTask(sim);
	sim.configure({ statusField: 'none' });
	const result = await run(sim, { nodes: [{ parameters: taskGet(taskId) }] });

	expect(result.error?.message).toBe(
		"The service's reply to the status check lacks fields this node needs [item 0]",
	);
	expect(result.error?.description).toContain('Missing or unexpected: status: Required');
	expect(result.error?.description).toContain(`"task_id":"${taskId}"`);
	expect(result.error?.description).not.toContain(TEST_API_KEY);
	expect(result.error?.context?.taskId).toBe(taskId);
	finishCase(sim, result, {
		case: 'task reply without a status',
		operation: 'task/get',
		injected: 'task: 200 without status',
	});
});
