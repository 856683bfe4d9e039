import { testCredential } from '../harness/credentialTester';
import { useSimulator } from '../harness/simulator';

const simulator = useSimulator();

test('a right key passes the credential test (the probe task is unknown: 404)', async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: `${sim.baseUrl}/`, apiKey: sim.apiKey });

	expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	const [probe] = sim.stats.requests;
	expect(probe).toMatchObject({ route: 'task', status: 404, path: '/v1/open/tasks/task_credential_check' });
	expect(probe.authorization).toBe(`Bearer ${sim.apiKey}`);
});

test('a wrong key fails the credential test with a message that says what to do', async () => {
	const sim = simulator();
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: 'wrong-key' });

	expect(result.status).toBe('Error');
	expect(result.message).toContain('rejected the API key (HTTP 401)');
});

test('a key the service refuses (403) fails the credential test', async () => {
	const sim = simulator();
	sim.addFault({ route: 'task', status: 403 });
	const result = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey });

	expect(result.status).toBe('Error');
	expect(result.message).toContain('member-level key');
});

test('an address where nothing listens fails the credential test', async () => {
	const result = await testCredential({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });

	expect(result.status).toBe('Error');
	expect(result.message).toMatch(/ECONNREFUSED|connect/i);
});

test('where every status is accepted (n8n 1.x), a refused key is recognised by the envelope code', async () => {
	const sim = simulator();
	const refused = await testCredential({ baseUrl: sim.baseUrl, apiKey: 'wrong-key' }, { acceptEveryStatus: true });
	expect(refused.status).toBe('Error');
	expect(refused.message).toContain('rejected the API key (code 401)');

	const accepted = await testCredential({ baseUrl: sim.baseUrl, apiKey: sim.apiKey }, { acceptEveryStatus: true });
	expect(accepted.status).toBe('OK');
});
