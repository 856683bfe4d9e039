import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import path from 'node:path';

// The simulator runs in a process of its own (simulator-host.js): this is the benches' handle on it.

export interface TaskFacts {
	task_id: string;
	createdAt: number;
	durationMs: number;
	queries: number;
}

/** A task with the times and answers of the queries about it. */
export interface TaskLooks {
	task_id: string;
	createdAt: number;
	durationMs: number;
	looks: Array<{ at: number; status: number }>;
}

/** The simulator host's methods, called over IPC. */
export class SimulatorHost {
	private readonly child: ChildProcess;
	private readonly pending = new Map<
		number,
		{ resolve: (value: unknown) => void; reject: (error: Error) => void }
	>();
	private nextId = 0;
	baseUrl = '';
	apiKey = '';

	constructor() {
		this.child = fork(path.join(__dirname, 'simulator-host.js'), [], {
			execArgv: [],
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		this.child.on(
			'message',
			({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
				const call = this.pending.get(id);
				this.pending.delete(id);
				if (error !== undefined) call?.reject(new Error(error));
				else call?.resolve(result);
			},
		);
	}

	private call<T>(method: string, ...args: unknown[]): Promise<T> {
		const id = this.nextId++;
		return new Promise<T>((resolve, reject) => {
			this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
			this.child.send({ id, method, args });
		});
	}

	async start(options: Record<string, unknown>): Promise<void> {
		({ baseUrl: this.baseUrl, apiKey: this.apiKey } = await this.call<{
			baseUrl: string;
			apiKey: string;
		}>('start', options));
	}
	configure = (partial: Record<string, unknown>) => this.call<null>('configure', partial);
	reset = () => this.call<null>('reset');
	stats = () => this.call<{ submitsAccepted: number; byRoute: Record<string, number> }>('stats');
	tasks = () => this.call<TaskFacts[]>('tasks');
	upload = (id: string) =>
		this.call<{ bytes: number; sha256: string; contentType: string } | null>('upload', id);
	seed = (size: number, fileName: string) =>
		this.call<{ url: string; id: string; sha256: string }>('seed', size, fileName);
	addFault = (fault: Record<string, unknown>) => this.call<null>('addFault', fault);
	taskLooks = () => this.call<TaskLooks[]>('taskLooks');

	async close(): Promise<void> {
		await this.call('close').catch(() => undefined);
		this.child.disconnect();
	}
}
