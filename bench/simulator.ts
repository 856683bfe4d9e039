import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';

/*
 * The simulator as the e2e suites host it: its CLI (test/simulator/cli.js) in a process of its
 * own, driven over its loopback admin routes (/__sim/…). Inside jest's module sandbox its PNG
 * encoding ran several times slower and, being one event loop, serialised the result downloads of
 * parallel items: out here it never shares a CPU budget, an event loop or a heap with the
 * process being measured.
 */

const CLI = path.resolve(__dirname, '..', 'test', 'simulator', 'cli.js');

export interface TaskFacts {
	task_id: string;
	createdAt: number;
	/** From the service's own `completed_at`; NaN while the task runs. */
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

const sha256 = (bytes: Uint8Array) => crypto.createHash('sha256').update(bytes).digest('hex');
const kebab = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export class Simulator {
	private child: ChildProcess | undefined;
	baseUrl = '';
	apiKey = '';

	/** Starts the CLI with these config keys (camel case, as the simulator names them). */
	async start(options: { apiKey: string } & Record<string, string | number>): Promise<void> {
		const { apiKey, ...config } = options;
		const args = Object.entries(config).flatMap(([key, value]) => [`--${kebab(key)}`, `${value}`]);
		const child = spawn(process.execPath, [CLI, '--json', '--key', apiKey, ...args], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		this.child = child;
		const first = await new Promise<string>((resolve, reject) => {
			let buffered = '';
			const onData = (chunk: Buffer) => {
				buffered += chunk.toString('utf8');
				const newline = buffered.indexOf('\n');
				if (newline < 0) return;
				child.stdout?.off('data', onData);
				// Keep draining, so a full pipe never blocks the simulator.
				child.stdout?.resume();
				resolve(buffered.slice(0, newline));
			};
			child.stdout?.on('data', onData);
			child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
		});
		({ baseUrl: this.baseUrl, apiKey: this.apiKey } = JSON.parse(first) as {
			baseUrl: string;
			apiKey: string;
		});
	}

	private async admin<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.baseUrl}/__sim/${route}`, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok)
			throw new Error(`simulator ${method} /__sim/${route}: HTTP ${response.status} ${text}`);
		return JSON.parse(text) as T;
	}

	configure = async (partial: Record<string, unknown>) => {
		await this.admin('POST', 'configure', partial);
	};
	reset = async () => {
		await this.admin('POST', 'reset', {});
	};
	addFault = async (fault: Record<string, unknown>) => {
		await this.admin('POST', 'faults', fault);
	};
	stats = () =>
		this.admin<{
			submitsAccepted: number;
			byRoute: Record<string, number>;
			requests: Array<{ route: string; path: string; at: number; status: number }>;
		}>('GET', 'stats');

	async tasks(): Promise<TaskFacts[]> {
		const tasks = await this.admin<
			Array<{ task_id: string; created_at: string; completed_at?: string; queries: number }>
		>('GET', 'tasks');
		return tasks.map(({ task_id, created_at, completed_at, queries }) => ({
			task_id,
			createdAt: Date.parse(created_at),
			durationMs: completed_at ? Date.parse(completed_at) - Date.parse(created_at) : NaN,
			queries,
		}));
	}

	/** Every task with the times and answers of the queries about it. */
	async taskLooks(): Promise<TaskLooks[]> {
		const [tasks, { requests }] = await Promise.all([this.tasks(), this.stats()]);
		const looks = new Map<string, TaskLooks['looks']>();
		for (const request of requests) {
			if (request.route !== 'task') continue;
			const id = decodeURIComponent(request.path.split('/').pop() ?? '');
			if (!looks.has(id)) looks.set(id, []);
			looks.get(id)!.push({ at: request.at, status: request.status });
		}
		return tasks.map(({ task_id, createdAt, durationMs }) => ({
			task_id,
			createdAt,
			durationMs,
			looks: looks.get(task_id) ?? [],
		}));
	}

	/** Random bytes sent through the service's own upload route, as a client would put them there. */
	async seed(size: number, fileName: string): Promise<{ url: string; id: string; sha256: string }> {
		const bytes = crypto.randomBytes(size);
		const form = new FormData();
		form.append('file', new Blob([bytes], { type: 'image/png' }), fileName);
		const response = await fetch(`${this.baseUrl}/v1/open/uploads/images`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${this.apiKey}` },
			body: form,
		});
		const body = (await response.json()) as { data: { url: string; id: string } };
		if (response.status !== 201)
			throw new Error(`seed upload: HTTP ${response.status} ${JSON.stringify(body)}`);
		return { url: body.data.url, id: body.data.id, sha256: sha256(bytes) };
	}

	/** What the service stored for an upload, read back from its media route. */
	async upload(id: string): Promise<{ bytes: number; sha256: string; contentType: string } | null> {
		const response = await fetch(`${this.baseUrl}/v1/open/media/${encodeURIComponent(id)}`, {
			headers: { Authorization: `Bearer ${this.apiKey}` },
		});
		if (response.status === 404) return null;
		if (!response.ok) throw new Error(`media ${id}: HTTP ${response.status}`);
		const bytes = new Uint8Array(await response.arrayBuffer());
		return {
			bytes: bytes.length,
			sha256: sha256(bytes),
			contentType: response.headers.get('content-type') ?? '',
		};
	}

	async close(): Promise<void> {
		const child = this.child;
		if (!child || child.exitCode !== null) return;
		const exited = new Promise((resolve) => child.once('exit', resolve));
		child.kill('SIGTERM');
		await exited;
	}
}
