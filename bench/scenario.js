'use strict';
// One scenario per process: maxRSS is a high-water mark for the whole process, so a scenario that
// ran earlier in the same process would hide a smaller peak. The parent owns the simulator, so
// the service's own buffers never count here.
//
// Protocol with the parent (IPC): argv[2] is {scenario, repeat?, memory?, ...settings}; the child
// warms up, sends {type: 'ready'}, waits for {type: 'go'} (the parent reconfigures the simulator in
// between), runs the measured part `repeat` times and sends {type: 'result', runs, facts}.
const crypto = require('node:crypto');
const fs = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');

require('./ts-require');
const { currentVersionOptions } = require('../test/harness/fixtures');

const settings = JSON.parse(process.argv[2]);

function sha256(bytes) {
	return crypto.createHash('sha256').update(bytes).digest('hex');
}

function harness() {
	return require('../test/harness/engine');
}

function credentials() {
	return { baseUrl: settings.baseUrl, apiKey: settings.apiKey };
}

function gc() {
	if (typeof global.gc !== 'function') throw new Error('run the child with --expose-gc');
	global.gc();
	global.gc();
}

/** The process's peak RSS as the kernel keeps it (Linux), or undefined elsewhere. */
function vmHwm() {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Linux lets a process reset its own peak RSS, so the peak after the reset belongs to the scenario
 * alone, not to loading TypeScript and the engine. It is read back as VmHWM: getrusage's maxRSS
 * also keeps the size of the process that forked this one (recorded at exec), which the reset does
 * not lower, so after a fork from a large parent maxRSS can sit above the whole scenario.
 */
function resetPeakRss() {
	try {
		fs.writeFileSync('/proc/self/clear_refs', '5');
		const peak = vmHwm();
		return peak !== undefined && peak <= process.memoryUsage().rss * 1.05;
	} catch {
		return false;
	}
}

/**
 * Peak RSS growth of `work` over the RSS it starts from, its wall time and CPU time. Without the
 * reset, maxRSS only counts when the scenario beats the warm-up's high-water mark, and below that a
 * 5 ms sampler stands in; it reads low when a peak lives inside one synchronous stretch, and its
 * wake-ups cost CPU, so it only runs for memory scenarios.
 */
async function measure(work) {
	gc();
	await sleep(50);
	gc();
	const rssBefore = process.memoryUsage().rss;
	const heapBefore = process.memoryUsage().heapUsed;
	const reset = resetPeakRss();
	const maxRssBefore = process.resourceUsage().maxRSS * 1024;
	let sampled = rssBefore;
	const sampler =
		!reset && settings.memory
			? setInterval(() => {
					sampled = Math.max(sampled, process.memoryUsage().rss);
				}, 5)
			: undefined;
	const cpuBefore = process.cpuUsage();
	const started = performance.now();
	const value = await work();
	const wallMs = performance.now() - started;
	const cpu = process.cpuUsage(cpuBefore);
	clearInterval(sampler);
	sampled = Math.max(sampled, process.memoryUsage().rss);
	const maxRssAfter = process.resourceUsage().maxRSS * 1024;
	const fromMaxRss = !reset && maxRssAfter > maxRssBefore;
	const peakRss = reset ? Math.max(vmHwm(), sampled) : fromMaxRss ? maxRssAfter : sampled;
	// What the run still holds once garbage is gone (its output included), apart from what V8
	// had not yet collected at the peak.
	gc();
	const heapRetained = process.memoryUsage().heapUsed - heapBefore;
	return {
		value,
		figures: {
			rssBefore,
			peakRss,
			rssGrowth: peakRss - rssBefore,
			heapRetained,
			peakSource: reset ? 'VmHWM after reset' : fromMaxRss ? 'maxRSS' : 'sampled',
			wallMs,
			cpuMs: (cpu.user + cpu.system) / 1000,
		},
	};
}

const download = (url, fileName) => ({
	parameters: {
		resource: 'image',
		operation: 'download',
		url,
		options: fileName ? { fileName } : {},
	},
});

/** Generate and Wait with its options written flat, in the current version's shape. */
const generateAndWait = (options) => ({
	parameters: {
		resource: 'image',
		operation: 'generateAndWait',
		prompt: 'bench: studio shot of a mug',
		options: currentVersionOptions(definedOnly({ initialDelay: 0, maxWaitTime: 120, ...options })),
	},
});

/** A setting the bench leaves unset is left out, so the node's default applies. */
function definedOnly(options) {
	return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

const upload = {
	parameters: { resource: 'image', operation: 'upload', binaryPropertyName: 'data' },
};

function binaryItem(bytes, fileName) {
	return {
		json: {},
		binary: {
			data: {
				data: bytes.toString('base64'),
				mimeType: 'image/png',
				fileName,
				fileExtension: 'png',
			},
		},
	};
}

async function runNode(spec) {
	const result = await harness().runWorkflow({ credentials: credentials(), ...spec });
	if (result.error) throw new Error(`workflow failed: ${result.error.message}`);
	return result;
}

async function fetchBody(url) {
	const response = await fetch(url);
	if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
	return await response.arrayBuffer();
}

async function fetchUpload(bytes, fileName) {
	const form = new FormData();
	form.append('file', new Blob([bytes], { type: 'image/png' }), fileName);
	const response = await fetch(`${settings.baseUrl}/v1/open/uploads/images`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${settings.apiKey}` },
		body: form,
	});
	if (response.status !== 201)
		throw new Error(`upload: HTTP ${response.status} ${await response.text()}`);
	return await response.json();
}

const scenarios = {
	/** image/download of the large media address, in the binary mode given. */
	'download-node': {
		warmUp: async () => {
			await runNode({ binaryMode: settings.binaryMode, nodes: [download(settings.smallUrl)] });
		},
		run: async () =>
			await runNode({
				binaryMode: settings.binaryMode,
				nodes: [download(settings.largeUrl, 'large.png')],
			}),
		check: async (result) => {
			const { binaryBytes } = harness();
			const [item] = result.items;
			const bytes = await binaryBytes(result, item);
			return {
				items: result.items.length,
				bytes: bytes.length,
				sha256: sha256(bytes),
				mimeType: item.binary?.data?.mimeType,
				stored: item.binary?.data?.id ? 'by id' : 'inline base64',
			};
		},
	},

	/** The whole body buffered, as a download without streaming would hold it. */
	'download-baseline': {
		warmUp: async () => {
			await fetchBody(settings.smallUrl);
		},
		run: async () => await fetchBody(settings.largeUrl),
		check: async (body) => ({
			items: 1,
			bytes: body.byteLength,
			sha256: sha256(new Uint8Array(body)),
		}),
	},

	/** image/upload of a binary held on the item as n8n's memory mode holds it (base64). */
	'upload-node': {
		prepare: async () => {
			const bytes = crypto.randomBytes(settings.uploadBytes);
			return { item: binaryItem(bytes, 'large.png'), sha256: sha256(bytes), bytes: bytes.length };
		},
		warmUp: async () => {
			await runNode({
				binaryMode: 'memory',
				nodes: [upload],
				input: [binaryItem(crypto.randomBytes(1024), 'small.png')],
			});
		},
		run: async (prepared) =>
			await runNode({ binaryMode: 'memory', nodes: [upload], input: [prepared.item] }),
		check: async (result, prepared) => ({
			items: result.items.length,
			uploadId: result.items[0]?.json?.id,
			bytes: prepared.bytes,
			sha256: prepared.sha256,
		}),
	},

	/** image/upload of a binary in the filesystem store, as image/download left it there. */
	'upload-node-filesystem': {
		prepare: async () => {
			const seeded = await runNode({
				binaryMode: 'filesystem',
				nodes: [download(settings.sourceUrl, 'large.png')],
			});
			const [item] = seeded.items;
			if (!item.binary?.data?.id)
				throw new Error('the downloaded binary is not in the filesystem store');
			return {
				item: { json: {}, binary: item.binary },
				sha256: settings.sourceSha256,
				bytes: settings.uploadBytes,
			};
		},
		warmUp: async () => {
			await runNode({ binaryMode: 'filesystem', nodes: [download(settings.smallUrl), upload] });
		},
		run: async (prepared) =>
			await runNode({ binaryMode: 'filesystem', nodes: [upload], input: [prepared.item] }),
		check: async (result, prepared) => ({
			items: result.items.length,
			uploadId: result.items[0]?.json?.id,
			bytes: prepared.bytes,
			sha256: prepared.sha256,
		}),
	},

	/** The same bytes sent with fetch + FormData + Blob and nothing else. */
	'upload-baseline': {
		prepare: async () => {
			const bytes = crypto.randomBytes(settings.uploadBytes);
			return { bytes, sha256: sha256(bytes) };
		},
		warmUp: async () => {
			await fetchUpload(crypto.randomBytes(1024), 'small.png');
		},
		run: async (prepared) => await fetchUpload(prepared.bytes, 'large.png'),
		check: async (reply, prepared) => ({
			items: 1,
			uploadId: reply?.data?.id ?? reply?.id,
			bytes: prepared.bytes.length,
			sha256: prepared.sha256,
		}),
	},

	/** Generate and Wait over several items with the given Max Concurrency (and polling mode, if any). */
	'generate-wait': {
		warmUp: async () => {
			await runNode({ nodes: [generateAndWait({ pollInterval: 0.1 })] });
		},
		run: async () =>
			await runNode({
				nodes: [
					generateAndWait({
						pollInterval: settings.pollInterval,
						maxConcurrency: settings.maxConcurrency,
						polling: settings.polling,
					}),
				],
				input: Array.from({ length: settings.items }, (_, index) => ({ json: { index } })),
			}),
		check: async (result) => ({
			items: result.items.length,
			withBinary: result.items.filter((item) => item.binary?.data).length,
		}),
	},

	/**
	 * Generate and Wait at the service's pace: the polling mode, poll interval and initial delay
	 * under test, items in one node run (`runs: 1`) or each item its own node run, all at once
	 * (`runs: items`, every lane with its own back-off).
	 */
	polling: {
		warmUp: async () => {
			await runNode({ nodes: [generateAndWait({ pollInterval: 0.1, polling: 'fixed' })] });
		},
		run: async () => {
			const node = generateAndWait({
				polling: settings.polling,
				pollInterval: settings.pollInterval,
				initialDelay: settings.initialDelay,
				maxConcurrency: settings.maxConcurrency,
				maxWaitTime: 600,
			});
			const item = (index) => ({ json: { index } });
			const runs = settings.separateRuns ? settings.items : 1;
			const perRun = settings.items / runs;
			const results = await Promise.all(
				Array.from({ length: runs }, (_, run) =>
					runNode({
						nodes: [node],
						input: Array.from({ length: perRun }, (_, index) => item(run * perRun + index)),
						binaryMode: settings.binaryMode,
					}),
				),
			);
			return results.flatMap((result) => result.items);
		},
		check: async (items) => ({
			items: items.length,
			withBinary: items.filter((item) => item.binary?.data).length,
			storedById: items.filter((item) => item.binary?.data?.id).length,
		}),
	},

	/** The same loaded process doing nothing for the same time: the floor for CPU per second. */
	idle: {
		warmUp: async () => {
			await runNode({ nodes: [generateAndWait({ pollInterval: 0.1 })] });
		},
		run: async () => {
			await sleep(settings.idleMs);
			return undefined;
		},
		check: async () => ({ items: 0 }),
	},
};

function nextMessage(type) {
	return new Promise((resolve) => {
		const listener = (message) => {
			if (message?.type !== type) return;
			process.off('message', listener);
			resolve(message);
		};
		process.on('message', listener);
	});
}

async function main() {
	const scenario = scenarios[settings.scenario];
	if (!scenario) throw new Error(`unknown scenario ${settings.scenario}`);
	const prepared = scenario.prepare ? await scenario.prepare() : undefined;
	await scenario.warmUp();
	const go = nextMessage('go');
	process.send({ type: 'ready' });
	await go;
	const runs = [];
	let last;
	for (let run = 0; run < (settings.repeat ?? 1); run++) {
		// The previous run's output must be collectable before the next run's baseline RSS is taken.
		last = undefined;
		const { value, figures } = await measure(async () => await scenario.run(prepared));
		last = value;
		runs.push(figures);
	}
	const facts = await scenario.check(last, prepared);
	finish({ type: 'result', runs, facts }, 0);
}

// Keep-alive sockets and the engine's timers would keep the child alive; the parent has all it needs.
function finish(message, code) {
	process.send(message, () => process.exit(code));
}

main().then(
	() => {},
	(error) => finish({ type: 'failed', message: String(error?.stack ?? error) }, 1),
);
