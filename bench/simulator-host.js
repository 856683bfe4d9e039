'use strict';
// The simulator in a plain node process of its own. Inside jest's module sandbox its PNG encoding
// ran several times slower and, being one event loop, serialised the result downloads of parallel
// items: the concurrency figures measured the host, not the node. Out here it also never shares a
// CPU budget or a heap with the process being measured.
//
// The parent drives it over IPC: {id, method, args} in, {id, result} or {id, error} out.
const crypto = require('node:crypto');

const { startSimulator } = require('../test/simulator');

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

let sim;

const methods = {
	async start(options) {
		sim = await startSimulator(options);
		return { baseUrl: sim.baseUrl, apiKey: sim.apiKey };
	},
	configure(partial) {
		sim.configure(partial);
		return null;
	},
	reset() {
		sim.reset();
		return null;
	},
	stats() {
		const { submitsAccepted, byRoute } = sim.stats;
		return { submitsAccepted, byRoute };
	},
	tasks() {
		return [...sim.tasks.values()].map(({ task_id, createdAt, durationMs, queries }) => ({
			task_id,
			createdAt,
			durationMs,
			queries,
		}));
	},
	addFault(fault) {
		sim.addFault(fault);
		return null;
	},
	/** Every task with the times and answers of the queries about it. */
	taskLooks() {
		const looks = new Map();
		for (const r of sim.stats.requests) {
			if (r.route !== 'task') continue;
			const id = decodeURIComponent(r.path.split('/').pop());
			if (!looks.has(id)) looks.set(id, []);
			looks.get(id).push({ at: r.at, status: r.status });
		}
		return [...sim.tasks.values()].map(({ task_id, createdAt, durationMs }) => ({
			task_id,
			createdAt,
			durationMs,
			looks: looks.get(task_id) ?? [],
		}));
	},
	upload(id) {
		const stored = sim.uploads.get(id);
		return stored
			? {
					bytes: stored.bytes.length,
					sha256: sha256(stored.bytes),
					contentType: stored.contentType,
				}
			: null;
	},
	/** Random bytes sent through the service's own upload route, as a client would put them there. */
	async seed(size, fileName) {
		const bytes = crypto.randomBytes(size);
		const form = new FormData();
		form.append('file', new Blob([bytes], { type: 'image/png' }), fileName);
		const response = await fetch(`${sim.baseUrl}/v1/open/uploads/images`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${sim.apiKey}` },
			body: form,
		});
		const body = await response.json();
		if (response.status !== 201)
			throw new Error(`seed upload: HTTP ${response.status} ${JSON.stringify(body)}`);
		return { url: body.data.url, id: body.data.id, sha256: sha256(bytes) };
	},
	async close() {
		await sim?.close();
		sim = undefined;
		return null;
	},
};

process.on('message', async ({ id, method, args }) => {
	try {
		const result = await methods[method](...(args ?? []));
		process.send({ id, result });
	} catch (error) {
		process.send({ id, error: String(error?.stack ?? error) });
	}
});

// The parent going away (a failed or interrupted bench) takes the simulator with it.
process.on('disconnect', () => process.exit(0));
