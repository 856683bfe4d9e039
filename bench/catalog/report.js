// @ts-check
'use strict';

// The night's figures as lines for the console and docs/large-catalogues.md, and what makes the
// run fail: a product lost or billed twice, or a night that did not finish.

const { formatDuration, formatBytes } = require('../../test/e2e/lib/log');

/** @param {number} n */
const count = (n) => n.toLocaleString('en-US');
/** @param {number} part @param {number} whole */
const share = (part, whole) => (whole ? `${((100 * part) / whole).toFixed(1)} %` : '-');
/** @param {Record<string, number>} record */
const listed = (record) =>
	Object.entries(record)
		.map(([key, n]) => `${key} ${count(n)}`)
		.join(', ');

/**
 * @param {{
 *   options: import('../catalog-night').Options,
 *   night: Awaited<ReturnType<typeof import('./night').runNight>>,
 *   memory: Record<string, {own: number, tree: number}>,
 *   products: ReturnType<typeof import('./figures').productFigures>,
 *   service: ReturnType<typeof import('./figures').serviceFigures>,
 *   paces: ReturnType<typeof import('./figures').runPaces>,
 *   database: Awaited<ReturnType<typeof import('./figures').databaseFigures>>,
 *   storeReads?: Array<number | {pages: number, took: boolean}>,
 *   workflows: {submit: string, collect: string},
 *   perRun?: ReturnType<typeof import('./per-run').perRunMedians>,
 * }} m
 */
function report(m) {
	const lines = [
		setupLine(m.options),
		...productLines(m.products),
		...timeLines(m),
		serviceLine(m.service, m.products, m.night),
		storeLine(m.storeReads ?? []),
		memoryLine(m.memory),
		...storageLines(m.database, m.workflows, m.products.products),
		...perRunLines(m.perRun ?? [], m.options.submitsPerMinute),
		goalsLine(m),
	];
	return { lines, capacity: capacityLines(m), problems: problems(m) };
}

/** The example's schedule: ticks from 0:00 to 6:59. */
const NIGHT_MINUTES = 7 * 60;

/**
 * How many products a night, from what this night measured: the pace the runs kept against the
 * limit, the bytes of a row and of a run's execution data. For the page's table of setups.
 * @param {Parameters<typeof report>[0]} m
 */
function capacityLines(m) {
	const { options, paces, database } = m;
	// Runs of more than one batch: one batch has no pace of its own.
	const submitting = paces.filter((p) => p.perMinute > 0).map((p) => p.perMinute);
	const pace = submitting.length
		? [...submitting].sort((a, b) => a - b)[Math.floor(submitting.length / 2)]
		: 0;
	// The service takes no more than its limit, whatever a count over a run's own span says.
	const kept = Math.min(1, pace / options.submitsPerMinute);
	const night = (/** @type {number} */ limit) => Math.floor(limit * kept * NIGHT_MINUTES);
	const rowBytes = database.dataTable.bytes / Math.max(1, database.dataTable.rows);
	const submitRuns = database.executions.filter((e) => e.workflowId === m.workflows.submit);
	const runBytes =
		submitRuns.reduce((sum, e) => sum + e.bytes, 0) /
		Math.max(
			1,
			submitRuns.reduce((sum, e) => sum + e.count, 0),
		);
	const perRun = Math.min(250, options.productsPerPage) * options.pagesPerRun;
	const needed = Math.ceil(100000 / (kept * NIGHT_MINUTES));
	const big = (m.perRun ?? []).find((r) => r.size === 100000);
	return [
		`Measured pace: a median run kept ${pace.toFixed(0)} submits a minute against the limit of ${count(options.submitsPerMinute)} (${share(pace, options.submitsPerMinute)}); the schedule's night (0:00 to 6:59) has ${NIGHT_MINUTES} minutes of runs`,
		`The example's defaults (submitsPerMinute 60, batches of 1): at most ${count(60 * NIGHT_MINUTES)} products a night, the limit's own bound; about ${count(night(60))} if its runs keep the share of the limit measured here`,
		`A service that takes ${count(options.submitsPerMinute)} a minute (submitsPerMinute ${count(options.submitsPerMinute)}, batches of ${Math.max(1, Math.ceil((options.submitsPerMinute * options.secondsPerBatch) / 60))}): about ${count(night(options.submitsPerMinute))} products a night at the pace measured here; ${count(options.products)} took the night above`,
		`A catalog of 100,000 in one night needs a limit of at least ${count(needed)} submits a minute at this pace (or the runs of more than one night); each run costs what it costs at 10,000` +
			(big
				? ` (per-run figures above: run time ${big.ratio.ms.toFixed(2)}×, execution data ${big.ratio.dataBytes.toFixed(2)}×, worker memory ${big.ratio.workerMiB.toFixed(2)}×)`
				: '') +
			`, in ${count(Math.ceil(100000 / perRun))} runs of ${count(perRun)}`,
		`The n8n limits that come next at 100,000: the Data Table, one row a product (${Math.round(rowBytes)} B a row here: ${formatBytes(rowBytes * 100000)} for 100,000, of the 200 MiB n8n allows all Data Tables together unless N8N_DATA_TABLES_MAX_SIZE_BYTES says otherwise, so about ${count(Math.floor((200 * 1024 * 1024) / Math.max(1, rowBytes)))} rows); ` +
			`execution data, ${formatBytes(runBytes)} a submit run here, ${formatBytes(runBytes * Math.ceil(100000 / perRun))} for a night of 100,000, kept until pruned; ` +
			`binary data, one image file a product in n8n's store until its execution is pruned`,
	];
}

/** @param {import('../catalog-night').Options} o */
function setupLine(o) {
	const scope = o.outageScope === 'all' ? 'every request' : 'task queries';
	return (
		`Setup: n8n 2.41.0 in queue mode (Postgres, Redis, main + 2 workers at n8n's default concurrency 10, binary data in the database); ` +
		`examples/catalogue-submit.json and catalogue-collect.json as saved there (their Data Tables and credential pointed at the bench's, the store's paged read replaced by a catalog of ${count(o.products)} products read page by page, ` +
		`Settings: submitsPerMinute ${count(o.submitsPerMinute)}, productsPerPage ${count(o.productsPerPage)}, pagesPerRun ${o.pagesPerRun}, secondsPerBatch ${o.secondsPerBatch}: batches of ${Math.max(1, Math.ceil((o.submitsPerMinute * o.secondsPerBatch) / 60))}); the service: ${count(o.submitsPerMinute)} submits per minute and ${count(o.tasksInFlight)} tasks in flight (429 with Retry-After beyond), ` +
		`generations of ${o.taskSeconds}–${o.taskSeconds + o.taskSpreadSeconds} s, 1 image each; a collect sweep every ${o.sweepSeconds} s (none overlapping); ` +
		(o.outageSeconds > 0
			? `an outage of ${scope} (503, a proxy's HTML page) for ${o.outageSeconds} s from the first sweep after ${share(o.outageAt, 1)} of the catalog was recorded; `
			: 'no outage; ') +
		(o.killAt > 0
			? `the worker running the submit run killed (SIGKILL, its process group) after ${share(o.killAt, 1)}, right after the run marked a batch as sending, while the service held every answer for 3 s (the batch in flight: its tasks made, or its submits waiting out a 429), and a new one started ${o.restartAfterSeconds} s later; `
			: 'no worker killed; ') +
		`a tick of the submit schedule every ${o.submitEverySeconds} s (as saved: every minute), each taking the run when free or waiting for it; rows of unknown fate resolved as the example's note says once the service answered` +
		(Object.keys(o.n8nEnv).length
			? `; n8n settings: ${Object.entries(o.n8nEnv)
					.map(([k, v]) => `${k}=${v}`)
					.join(', ')}`
			: '')
	);
}

/** @param {ReturnType<typeof import('./figures').productFigures>} p */
function productLines(p) {
	return [
		`Products: ${count(p.exactlyOnce)} of ${count(p.products)} submitted exactly once (the service's own log, per product); ${count(p.never)} never, ${count(p.twiceOrMore)} twice or more; ` +
			`${count(p.unrecorded)} tasks at the service that no row records; ${count(p.rows)} rows for ${count(p.rowProducts)} products`,
		`Collected: ${count(p.collected)} rows with every image downloaded (${count(p.imagesCollected)} images); rows by status: ${listed(p.byStatus)}; ` +
			`rows left for a later sweep: ${count(p.open)}; rows closed without their images although the service finished the task: ${count(p.abandoned)}` +
			(p.abandoned
				? ` (${p.abandonedErrors.map(([text, n]) => `${count(n)}× "${text}"`).join('; ')})`
				: '') +
			`; tasks failed at the service: ${count(p.failedAtService)}`,
	];
}

/** The pauses between runs: from one run's end to the next one's start. @param {{startedAt: number, endedAt?: number}[]} runs */
const gaps = (runs) =>
	runs.slice(1).map((run, i) => Math.max(0, run.startedAt - (runs[i].endedAt ?? run.startedAt)));

/**
 * Whether two runs ever held the run at once. A night measured before the bench read the hold's
 * end counted every handover it saw without the run free in between (it looks once a second).
 * @param {{overlaps: number, directHandovers?: number}} night
 */
const handoverText = (night) =>
	night.directHandovers === undefined
		? `handovers seen from one run straight to the next, the run free for less than the bench's look a second (whether a hold had lapsed was not read that night; a second run at once would show as 429s and products submitted twice): ${count(night.overlaps)}; `
		: `handovers seen from one run straight to the next: ${count(night.directHandovers)}, of them taking a hold that had lapsed while its run (not killed) still ran: ${count(night.overlaps)}; `;

/** @param {Parameters<typeof report>[0]} m */
function timeLines(m) {
	const { night, service, options } = m;
	const wall = night.endedAt - night.startedAt;
	const submitting = (service.lastSubmit ?? 0) - (service.firstSubmit ?? 0);
	const perMinute = submitting > 0 ? ((m.products.exactlyOnce - 1) / submitting) * 60_000 : 0;
	/** @param {number[]} list */
	const spread = (list) => {
		const sorted = [...list].sort((a, b) => a - b);
		return sorted.length
			? `median ${formatDuration(sorted[Math.floor(sorted.length / 2)])}, longest ${formatDuration(sorted[sorted.length - 1])}`
			: 'none';
	};
	/** @type {Record<string, number>} */
	const byStatus = {};
	for (const r of night.submitRuns)
		byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
	const withSubmits = m.paces.filter((p) => p.submitted > 0);
	const paces = withSubmits
		.map((p) => p.perMinute)
		.filter((pace) => pace > 0)
		.sort((a, b) => a - b);
	const medianPace = paces.length ? paces[Math.floor(paces.length / 2)] : 0;
	const runs =
		`${count(night.submitRuns.length)} submit runs from ${count(night.ticks)} ticks (${listed(byStatus)}), ${count(withSubmits.length)} of them submitting, at most ${count(Math.max(0, ...m.paces.map((p) => p.submitted)))} products in one; ` +
		`each run's time ${spread(night.submitRuns.map((r) => (r.endedAt ?? 0) - r.startedAt))}; from one run letting go to the next taking over ${spread(gaps(night.submitRuns))}; ` +
		handoverText(night) +
		`its first submit after the run's start ${spread(withSubmits.map((p) => p.firstSubmitAfterMs ?? 0))}; ` +
		`a median run submitted ${medianPace.toFixed(0)} per minute` +
		(medianPace > 0 ? ` (${share(medianPace, options.submitsPerMinute)} of the limit)` : '') +
		`; rows of unknown fate resolved: ${count(night.resolved.deleted)} deleted (no task at the service), ${count(night.resolved.linked)} given their task`;
	const durations = night.sweeps.map((s) => (s.endedAt ?? 0) - s.startedAt).sort((a, b) => a - b);
	const outageSweep = night.sweeps.find((s) => s.id === night.outage.sweep);
	const relabeled = [...night.submitRuns, ...night.sweeps]
		// A status marked while a worker ran on counts when it lasted (the night times it) or when
		// n8n recorded another in the end; otherwise it was the worker's log line coming late.
		.filter(
			(r) =>
				(r.markedWhileRunning &&
					(r.markedAt !== undefined || r.markedWhileRunning !== r.recorded)) ||
				(r.recorded && r.recorded !== r.status),
		)
		.map(
			(r) =>
				`${r.id} ${r.markedWhileRunning && (r.markedAt !== undefined || r.markedWhileRunning !== r.recorded) ? `marked ${r.markedWhileRunning} while a worker still ran it, ` : ''}seen to end ${r.status}, recorded ${r.recorded}`,
		);
	const kill = night.kill;
	return [
		`Time: ${formatDuration(wall)} from the first submit run to the last sweep${night.timedOut ? ' (stopped: the night did not finish)' : ''}; ` +
			`the rate limit's bound (products / submits per minute): ${formatDuration(night.boundMs)}, the night took ${(wall / night.boundMs).toFixed(2)}× that` +
			(night.outage.to
				? ` (${(wall / (night.boundMs + night.outage.to - (night.outage.from ?? 0))).toFixed(2)}× the bound plus the ${formatDuration(night.outage.to - (night.outage.from ?? 0))} the service was down)`
				: '') +
			'; ' +
			`submits accepted from the first to the last in ${formatDuration(submitting)}, ${perMinute.toFixed(0)} per minute against the limit of ${options.submitsPerMinute}`,
		`Runs: ${runs}; ` +
			(kill.at
				? `${kill.worker} killed with ${count(kill.rows ?? 0)} rows recorded and ${count(kill.submitted ?? 0)} tasks accepted, ${kill.replacement ?? 'no worker'} ready ${formatDuration((kill.restartedAt ?? kill.at) - kill.at)} after the kill; `
				: 'no worker killed; ') +
			`${night.sweeps.length} sweeps, ${durations.length ? `median ${formatDuration(durations[Math.floor(durations.length / 2)])}, longest ${formatDuration(durations[durations.length - 1])}` : 'none'}` +
			(outageSweep
				? `; the service was down from ${formatDuration((night.outage.from ?? 0) - night.startedAt)} into the night for ${formatDuration((night.outage.to ?? 0) - (night.outage.from ?? 0))}, during sweep ${outageSweep.id}, which took ${formatDuration((outageSweep.endedAt ?? 0) - outageSweep.startedAt)} and ended ${outageSweep.status}`
				: '') +
			(relabeled.length
				? `; executions n8n marked otherwise than they ended: ${relabeled.join(', ')}`
				: ''),
	];
}

/**
 * The store's reads, per submit run: the runs that took the run apart from the ticks that waited
 * for another and read nothing (a kept night's figures may hold counts alone, all taken).
 * @param {Array<number | {pages: number, took: boolean}>} reads
 */
function storeLine(reads) {
	const runs = reads.map((r) => (typeof r === 'number' ? { pages: r, took: true } : r));
	const took = runs.filter((r) => r.took).map((r) => r.pages);
	const sorted = [...took].sort((a, b) => a - b);
	const pages = took.reduce((a, b) => a + b, 0);
	return took.length
		? `Store reads: ${count(pages)} pages in the night's ${took.length} submit runs that took the run (of ${runs.length} whose execution data n8n kept; the other ${runs.length - took.length} waited for a run and read nothing), median ${sorted[Math.floor(sorted.length / 2)]} a run, at most ${sorted[sorted.length - 1]}; runs that read the store once: ${took.filter((r) => r === 1).length}, not at all: ${took.filter((r) => r === 0).length}`
		: 'Store reads: none counted';
}

/**
 * Images the service served more than once, and how many of them a sweep that died with the
 * killed worker had fetched first: its execution ended before its rows were recorded, so the next
 * sweep fetched them again.
 * @param {number[]} firstTimes when each repeated image was first downloaded
 * @param {Parameters<typeof report>[0]['night']} night
 */
function downloadedAgainText(firstTimes, night) {
	const killed = night.sweeps.filter((s) => s.status === 'killed');
	const inKilled = (/** @type {number} */ at) =>
		killed.some((s) => at >= s.startedAt && at <= (night.kill.at ?? s.endedAt ?? at));
	const lost = firstTimes.filter(inKilled).length;
	return (
		`; images downloaded more than once: ${count(firstTimes.length)}` +
		(killed.length
			? ` (${count(lost)} of them first downloaded by sweep ${killed.map((s) => s.id).join(', ')}, which died with the killed worker before its rows were recorded)`
			: '')
	);
}

/**
 * @param {ReturnType<typeof import('./figures').serviceFigures>} s
 * @param {ReturnType<typeof import('./figures').productFigures>} p
 * @param {Parameters<typeof report>[0]['night']} night
 */
function serviceLine(s, p, night) {
	const answers = Object.entries(s.byRoute)
		.map(([route, statuses]) => `${route} ${listed(statuses)}`)
		.join('; ');
	return (
		`Service: ${s.taskQueries > 0 ? (s.taskQueries / Math.max(1, p.exactlyOnce + p.twiceOrMore)).toFixed(2) : '0'} status queries per task (${count(s.taskQueries)} in all, at most ${count(s.answeredQueriesMax)} answered for one task); ` +
		`${count(s.submits429)} submits answered 429; ${count(s.outageAnswers)} requests answered 503 by the proxy; requests by route and answer: ${answers}` +
		downloadedAgainText(s.downloadedAgain ?? [], night)
	);
}

/** @param {Record<string, {own: number, tree: number}>} memory */
function memoryLine(memory) {
	const each = Object.entries(memory).map(
		([name, peak]) =>
			`${name} ${peak.own.toFixed(0)} MiB (${peak.tree.toFixed(0)} MiB with its task runner)`,
	);
	return `Peak memory (RSS, sampled every second from /proc): ${each.join(', ')}`;
}

/**
 * @param {Awaited<ReturnType<typeof import('./figures').databaseFigures>>} d
 * @param {{submit: string, collect: string}} workflows
 * @param {number} products
 */
function storageLines(d, workflows, products) {
	const name = (/** @type {string} */ id) =>
		id === workflows.submit ? 'submit' : id === workflows.collect ? 'collect' : id;
	const executions = d.executions.map(
		(e) =>
			`${name(e.workflowId)} ${e.status} ${count(e.count)} (${formatBytes(e.bytes)}, largest ${formatBytes(e.maxBytes)})`,
	);
	const total = d.executions.reduce((sum, e) => sum + e.count, 0);
	return [
		`Executions in Postgres: ${count(total)}: ${executions.join('; ')} (n8n's own size of each execution's data); ` +
			`the table execution_data: ${formatBytes(d.executionData.bytes)} of data in ${formatBytes(d.executionData.tableBytes)} on disk`,
		`Data Table catalogue_tasks: ${count(d.dataTable.rows)} rows, ${formatBytes(d.dataTable.bytes)} (${Math.round(d.dataTable.bytes / Math.max(1, d.dataTable.rows))} B a row; n8n's limit for all Data Tables together: 200 MiB unless N8N_DATA_TABLES_MAX_SIZE_BYTES says otherwise)`,
		`Binary data (database mode): ${count(d.binary.files)} files, ${formatBytes(d.binary.bytes)} (${formatBytes(Math.round(d.binary.bytes / Math.max(1, d.binary.files)))} a file, the simulator's small PNGs) in ${formatBytes(d.binary.tableBytes)} on disk; ` +
			`the whole database ${formatBytes(d.databaseBytes)} for ${count(products)} products`,
	];
}

/**
 * The submit runs measured one at a time before the night, at its catalog size and a larger one.
 * @param {ReturnType<typeof import('./per-run').perRunMedians>} sizes
 * @param {number} limit submits a minute the service takes
 */
function perRunLines(sizes, limit) {
	if (sizes.length < 2) return [];
	const [base, ...larger] = sizes;
	const each = sizes.map(
		(m) =>
			`at ${count(m.size)} products ${formatDuration(m.ms)} (${count(m.submitted)} submitted` +
			(m.perMinute
				? `, ${m.perMinute.toFixed(0)} a minute, ${share(m.perMinute, limit)} of the limit`
				: '') +
			`), ${formatBytes(m.dataBytes)} of execution data, workers ${m.workerMiB.toFixed(0)} MiB`,
	);
	const ratios = larger.map(
		(m) =>
			`${count(m.size)} / ${count(base.size)}: run time ${m.ratio.ms.toFixed(2)}×, execution data ${m.ratio.dataBytes.toFixed(2)}×, worker memory ${m.ratio.workerMiB.toFixed(2)}×`,
	);
	return [
		`Per run, before the night (${base.runs} submit runs at each size, one after another, each as late in a night as it gets: the Data Table holding a row for every product before the run's page; medians, worker memory as the peak RSS of the workers with their task runners): ${each.join('; ')}; ${ratios.join('; ')}`,
	];
}

/**
 * The night against what the large-catalog work set out to reach: the pace within a run, the
 * night against the rate limit's bound, and a run's cost at the larger catalog. Said, not failed:
 * a busy machine makes them slower, not wrong.
 * @param {Parameters<typeof report>[0]} m
 */
function goalsLine(m) {
	const { night, options } = m;
	const wall = night.endedAt - night.startedAt;
	const down = night.outage.to ? night.outage.to - (night.outage.from ?? 0) : 0;
	const paces = m.paces.filter((p) => p.perMinute > 0).map((p) => p.perMinute);
	const pace = paces.length ? [...paces].sort((a, b) => a - b)[Math.floor(paces.length / 2)] : 0;
	const big = (m.perRun ?? []).slice(1);
	const within = (/** @type {number} */ ratio) => Math.abs(ratio - 1) <= 0.1;
	const met = (/** @type {boolean} */ ok) => (ok ? 'met' : 'not met');
	return (
		`Goals: a median run at least 80 % of the limit: ${share(pace, options.submitsPerMinute)}, ${met(pace >= 0.8 * options.submitsPerMinute)}` +
		(m.perRun?.[0]?.perMinute
			? ` (a single run before the night, with no sweep beside it: ${share(m.perRun[0].perMinute, options.submitsPerMinute)})`
			: '') +
		'; ' +
		`the night within 1.5× the rate limit's bound: ${(wall / night.boundMs).toFixed(2)}×, ${met(wall <= 1.5 * night.boundMs)}` +
		(down
			? ` (${(wall / (night.boundMs + down)).toFixed(2)}× the bound plus the outage, ${met(wall <= 1.5 * (night.boundMs + down))})`
			: '') +
		(big.length
			? `; a run at the larger catalog within 10 % of one at ${count(m.perRun?.[0]?.size ?? 0)}: ${met(big.every((b) => within(b.ratio.ms) && within(b.ratio.dataBytes) && within(b.ratio.workerMiB)))}`
			: '') +
		`; no product lost or billed twice: ${met(problems(m).length === 0)}`
	);
}

/** @param {Parameters<typeof report>[0]} m */
function problems(m) {
	const p = m.products;
	return [
		p.never && `${count(p.never)} products never submitted`,
		p.twiceOrMore && `${count(p.twiceOrMore)} products submitted twice or more`,
		p.unrecorded &&
			`${count(p.unrecorded)} tasks at the service that no row records (billed, unknown to the workflows)`,
		p.abandoned &&
			`${count(p.abandoned)} products lost: the service finished their tasks, their rows are closed without the images`,
		p.strangers && `${count(p.strangers)} tasks for products not in the catalog`,
		m.night.timedOut && `the night did not finish: ${count(p.open)} rows still open`,
	].filter(/** @returns {x is string} */ (x) => typeof x === 'string');
}

module.exports = { report };
