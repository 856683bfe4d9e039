import { fork } from 'node:child_process';
import path from 'node:path';

/*
 * One scenario of scenario.js in a fresh node process (see its header for why): it warms up, says
 * `ready`, waits for `go` (the parent sets the simulator up in between), runs the measured part
 * `repeat` times and answers with the figures of each run and the facts of the last.
 */

export interface Figures {
	rssBefore: number;
	peakRss: number;
	rssGrowth: number;
	heapRetained: number;
	peakSource: string;
	wallMs: number;
	cpuMs: number;
}

export interface ScenarioResult {
	runs: Figures[];
	facts: Record<string, unknown>;
}

export interface ScenarioOptions {
	/** Between the warm-up and the measured part. */
	beforeGo?: () => Promise<unknown>;
	/** Right after `go` is sent, while the measured part runs. */
	afterGo?: () => void;
	/** Node flags beside --expose-gc. */
	nodeFlags?: string[];
	env?: NodeJS.ProcessEnv;
}

export async function runScenario(
	settings: Record<string, unknown>,
	{ beforeGo, afterGo, nodeFlags = [], env }: ScenarioOptions = {},
): Promise<ScenarioResult> {
	const name = String(settings.scenario);
	const child = fork(path.join(__dirname, 'scenario.js'), [JSON.stringify(settings)], {
		execArgv: ['--expose-gc', ...nodeFlags],
		env: env ?? process.env,
		stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
	});
	let output = '';
	child.stdout?.on('data', (chunk) => (output += chunk));
	child.stderr?.on('data', (chunk) => (output += chunk));
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	const result = await new Promise<ScenarioResult>((resolve, reject) => {
		child.on('message', (message: { type: string; message?: string } & ScenarioResult) => {
			if (message.type === 'ready') {
				(beforeGo ?? (async () => {}))().then(() => {
					child.send({ type: 'go' });
					afterGo?.();
				}, reject);
			} else if (message.type === 'result') {
				resolve({ runs: message.runs, facts: message.facts });
			} else if (message.type === 'failed') {
				reject(new Error(`${name}: ${message.message}\n${output}`));
			}
		});
		child.on('exit', (code) => reject(new Error(`${name} exited with ${code}\n${output}`)));
	});
	await exited;
	return result;
}
