import type { INodeParameters } from 'n8n-workflow';

import { DEFAULT_VERSION as CURRENT } from '../../nodes/ProductImage/descriptions/versions';
import { testCredential } from '../harness/credentialTester';
import { useSimulator } from '../harness/simulator';
import type { ForeignKind, ForeignOrigin } from '../simulator/foreign-origins';
import { startForeignOrigin } from '../simulator/foreign-origins';
import {
	analyze,
	generate,
	run,
	taskGet,
	FAULT_SIMULATOR,
	expectSubmitUnsureAdvice,
} from './faultCase';
import { finishCase } from './faultTable';

// A Base URL that reaches a web site (HTML to every path) instead of the service: a run says what
// the credential's Test says, and speaks of billing only where the service may have taken the
// request (a gateway's error page in front of it).

const simulator = useSimulator(FAULT_SIMULATOR);

const CHECK_BASE_URL = "Check 'Base URL': the URL your provider gave you, without /v1.";

const origins: ForeignOrigin[] = [];
async function origin(kind: ForeignKind): Promise<ForeignOrigin> {
	const started = await startForeignOrigin(kind);
	origins.push(started);
	return started;
}
afterEach(async () => {
	await Promise.all(origins.splice(0).map((started) => started.close()));
});

const onCurrent = (parameters: INodeParameters) => ({ parameters, typeVersion: CURRENT });

test.each([
	['submit', 'image/generate', () => generate(), true],
	['analysis', 'analysis/analyze', analyze, true],
	['status check', 'task/get', () => taskGet('task_1'), false],
] as const)(
	'%s answered by a web site: the credential Test’s advice, no billing warning, not retried',
	async (name, operation, parameters, billable) => {
		const sim = simulator();
		const site = await origin('website');
		const credentials = { baseUrl: site.baseUrl, apiKey: sim.apiKey };
		const result = await run(credentials, { nodes: [onCurrent(parameters(sim))] });
		expect(site.requests).toHaveLength(1);
		const verdict = await testCredential(credentials);

		expect(verdict.status).toBe('Error');
		expect(verdict.message.endsWith(CHECK_BASE_URL)).toBe(true);
		expect(result.error?.message).toBe('A web page answered instead of the service [item 0]');
		expect(result.error?.description).toContain(`The reply said: "Acme Outdoor Gear".`);
		expect(result.error?.description).toContain(CHECK_BASE_URL);
		if (billable) expect(result.error?.description).toContain('so nothing was billed');
		else expect(result.error?.description).not.toContain('billed');
		expect(result.error?.description).not.toMatch(/may have created|bill for it|request ID/);
		expect(result.error?.context?.mayHaveCreatedTask).toBeUndefined();
		finishCase(sim, result, {
			case: `${name} answered by a web site`,
			operation,
			injected: 'Base URL: a web site answering 200 text/html to every path',
		});
	},
);

test('a gateway’s error page in front of the service still warns that a submit may be billed', async () => {
	const sim = simulator();
	const gateway = await origin('badGateway');
	const result = await run(
		{ baseUrl: gateway.baseUrl, apiKey: sim.apiKey },
		{ nodes: [onCurrent(generate())] },
	);

	expect(result.error?.message).toBe('A gateway answered instead of the service [item 0]');
	expectSubmitUnsureAdvice(result.error?.description);
	expect(result.error?.context?.mayHaveCreatedTask).toBe(true);
	expect(gateway.requests).toHaveLength(1);
	finishCase(sim, result, {
		case: 'submit answered by a gateway page',
		operation: 'image/generate',
		injected: 'Base URL: a gateway answering 502 text/html to every path',
	});
});
