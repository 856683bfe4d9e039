// @ts-check
'use strict';

// The night itself, one look a second: a tick of the submit schedule as it starts them (each takes
// the run or waits for it; the bench watches who holds it), collect sweeps every few
// seconds that never overlap, the outage during a sweep, the kill of the worker running a submit
// run, and the operator resolving the rows of unknown fate the outage left, as the example's note
// asks.

const fs = require('node:fs');
const { info, formatDuration } = require('../../test/e2e/lib/log');
const { callWebhook } = require('../../test/queue/lib/rest');
const { executionsByWorker } = require('../../test/queue/lib/cluster');
const {
	FINAL,
	rowCount,
	tableRows,
	tableName,
	executionAfter,
	executionStatus,
	lastExecutionId,
} = require('./figures');

/**
 * @typedef {object} Run an execution the bench started through a webhook
 * @property {number} before the newest execution id when it was started
 * @property {number} startedAt
 * @property {number} [id]
 * @property {string} [status] its final status, or "killed" when its worker was
 * @property {number} [endedAt]
 * @property {number} [rowsAtEnd] rows in the Data Table when it ended
 * @property {number} [openAfter] rows the collector looks at again, after a sweep
 * @property {string} [recorded] the status n8n holds for it at the end of the night
 * @property {string} [markedWhileRunning] the status n8n gave it while a worker still ran it (for 30 s or more)
 * @property {number} [markedAt] when the bench first saw that status while a worker still ran it
 *
 * @typedef {object} NightContext
 * @property {Awaited<ReturnType<typeof import('../../test/queue/lib/stack').startStack>>} stack
 * @property {import('../../test/e2e/lib/simulator').RunningSimulator} sim
 * @property {{submit: {workflow: any, webhookPath: string}, collect: {workflow: any, webhookPath: string}}} copies
 * @property {string} tableId
 * @property {string} runsTableId the submit runs' own table (holder, cursor, the batch being sent)
 * @property {(row: Record<string, any>) => boolean} isOpen
 * @property {import('../catalog-night').Options} options
 */

const sleep = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/** How long the service holds every answer around the kill, so it lands while a batch is in flight. */
const KILL_HOLD_MS = 3000;

/**
 * Whether a live worker's log shows the execution started and not yet finished.
 * @param {{logFile: string, child: import('node:child_process').ChildProcess}[]} workers
 * @param {number} id
 */
function stillRunning(workers, id) {
	return workers.some((w) => {
		if (w.child.exitCode !== null || w.child.signalCode !== null) return false;
		const log = fs.readFileSync(w.logFile, 'utf8');
		return (
			log.includes(`Worker started execution ${id} `) &&
			!log.includes(`Worker finished execution ${id} `)
		);
	});
}

/** @param {NightContext} ctx */
async function runNight(ctx) {
	const { stack, options } = ctx;
	const db = stack;
	const startedAt = Date.now();
	const boundMs = (options.products / options.submitsPerMinute) * 60_000;
	// Far beyond what the loop, the outage and the restart add to the bound: a night still going
	// then is stuck.
	const deadline = startedAt + Math.max(4 * boundMs, boundMs + 90 * 60_000);
	const night = {
		startedAt,
		/** @type {Run[]} */ submitRuns: [],
		/** @type {Run[]} the submit runs started and not yet ended */ submitting: [],
		nextSubmitAt: startedAt,
		/** runs that took over a hold that had lapsed while its run (not killed) still ran */
		overlaps: 0,
		/** handovers seen from one run to the next without the run free between two looks */
		directHandovers: 0,
		/** the hold's end as last seen, for the run holding it */
		lastLease: 0,
		/** the schedule's ticks: each takes the run, waits for it or gives up */
		ticks: 0,
		submitDone: false,
		/** unknown rows the operator resolved: deleted (no task at the service) or given their task */
		resolved: { deleted: 0, linked: 0 },
		nextResolveAt: 0,
		/** @type {Run[]} */ sweeps: [],
		/** @type {Run | undefined} */ sweep: undefined,
		nextSweepAt: startedAt + options.sweepSeconds * 1000,
		/** @type {{at?: number, worker?: string, execution?: number, rows?: number, submitted?: number, replacement?: string, restartedAt?: number}} */
		kill: {},
		/** @type {Promise<void> | undefined} */ restarting: undefined,
		/** @type {{state: 'waiting' | 'on' | 'over', from?: number, to?: number, sweep?: number}} */
		outage: { state: options.outageSeconds > 0 ? 'waiting' : 'over' },
		rows: 0,
		timedOut: false,
		endedAt: 0,
	};

	/** Starts a workflow by its webhook; its execution id is learnt once it appears. @param {{webhookPath: string}} copy */
	const start = async (copy) => {
		const before = await lastExecutionId(db);
		const reply = await callWebhook(stack.baseUrl, copy.webhookPath);
		if (reply.status !== 200)
			throw new Error(`the webhook ${copy.webhookPath} answered HTTP ${reply.status}`);
		return /** @type {Run} */ ({ before, startedAt: Date.now() });
	};

	/** Whether the run has ended; its id and final status filled in. @param {Run} run @param {any} workflow */
	const ended = async (run, workflow) => {
		if (run.status === 'killed') return true;
		if (run.id === undefined) {
			const found = await executionAfter(db, workflow.id, run.before);
			if (!found) return false;
			run.id = found.id;
		}
		const status = await executionStatus(db, run.id);
		if (!FINAL.includes(String(status))) return false;
		// n8n may mark an execution ended that a live worker is still running: a new worker's
		// start-up recovery marks crashed what another runs (the workers share one n8n folder here,
		// and with it the event log it reads), and main fails the job of a worker that held its
		// event loop past the job's lock. It has not ended: rerunning it would submit twice.
		if (stillRunning(stack.workers, run.id)) {
			if (!run.markedWhileRunning)
				info(`execution ${run.id} is marked ${status} while a worker still runs it`);
			run.markedWhileRunning = status;
			run.markedAt ??= Date.now();
			return false;
		}
		// The worker writes its log line a moment after the database: only a longer gap counts.
		if (run.markedAt !== undefined && Date.now() - run.markedAt < 30_000)
			run.markedWhileRunning = undefined;
		run.status = status;
		return true;
	};

	/** Every product has a row that is not of unknown fate. */
	const catalogThrough = async () => {
		const [[recorded]] = await db.sql(
			`select count(distinct product_id) from ${tableName(ctx.tableId)} where status <> 'unknown'`,
		);
		return Number(recorded) >= options.products;
	};

	// The run's holder as the run-state table says: a new holder is a new run, an empty one none.
	const readHolder = async () => {
		const [[holder = '', sending = '', lease = '0'] = []] = await db.sql(
			`select holder, sending, lease_until from ${tableName(ctx.runsTableId)} where name = 'submit' limit 1`,
		);
		return { holder: String(holder ?? ''), sending: String(sending ?? ''), lease: Number(lease) };
	};

	/** @param {Run} run */
	const endRun = (run) => {
		run.endedAt = Date.now();
		run.rowsAtEnd = night.rows;
		night.submitRuns.push(run);
		night.submitting = night.submitting.filter((r) => r !== run);
		info(`submit run ${run.id} let go of the run with ${night.rows} rows recorded`);
	};

	// As the schedule does: a tick every submitEverySeconds. A tick takes the run when no other run
	// holds it, or waits for it; the bench only watches who holds it. A new holder that follows one
	// that never let go (and was not killed) is a run that started while another still ran.
	// A tick takes the run only once its hold has lapsed or been let go: a run seen holding it until
	// the next one holds it let go in between, unless its hold had lapsed (a run that stalled past
	// its hold, not killed, while the next one started: two at once).
	const tickSubmit = async () => {
		const { holder, lease } = await readHolder();
		const current = night.submitting[0];
		if (current && String(current.id) !== holder) {
			endRun(current);
			if (holder) night.directHandovers += 1;
			if (holder && current.status !== 'killed' && night.lastLease < Date.now())
				night.overlaps += 1;
		}
		night.lastLease = lease;
		if (
			holder &&
			!night.submitting.length &&
			!night.submitRuns.some((r) => String(r.id) === holder)
		)
			night.submitting.push({ before: 0, startedAt: Date.now(), id: Number(holder) });
		if (night.submitDone || Date.now() < night.nextSubmitAt) return;
		if (!holder && (await catalogThrough())) {
			night.submitDone = true;
			info(`every product recorded after ${night.submitRuns.length} submit runs`);
			return;
		}
		await start(ctx.copies.submit);
		night.ticks += 1;
		night.nextSubmitAt += options.submitEverySeconds * 1000;
	};

	// The operator, as the example's note asks, once the service answers again: a row of unknown
	// fate whose product the service has no task for is deleted (a later run submits it); one it
	// has a task for gets that task. The service's submit log stands in for asking its provider.
	const tickResolve = async () => {
		if (night.outage.state === 'on' || Date.now() < night.nextResolveAt) return;
		night.nextResolveAt = Date.now() + 10_000;
		const unknown = await db.sql(
			`select id, title from ${tableName(ctx.tableId)} where status = 'unknown'`,
		);
		if (unknown.length === 0) return;
		const tasks = await ctx.sim.tasks();
		for (const [id, title] of unknown) {
			const task = tasks.find(
				(/** @type {any} */ t) => String(t.body?.product_info?.name) === title,
			);
			if (task) {
				await db.sql(
					`update ${tableName(ctx.tableId)} set task_id = '${task.task_id}', status = 'submitted' where id = ${Number(id)}`,
				);
				night.resolved.linked += 1;
			} else {
				await db.sql(`delete from ${tableName(ctx.tableId)} where id = ${Number(id)}`);
				night.resolved.deleted += 1;
			}
		}
		info(`resolved ${unknown.length} row(s) of unknown fate`);
	};

	const tickKill = async () => {
		const run = night.submitting[0];
		if (night.kill.at || options.killAt <= 0 || !run?.id || run.status) return;
		if (night.rows < options.killAt * options.products) return;
		const worker = executionsByWorker(stack.workers).get(String(run.id));
		const victim = stack.workers.find((w) => w.name === worker);
		if (!victim?.pid) return;
		// Right after the run marks its next batch as sending, while that batch is being submitted:
		// the worst place for a crash, which leaves the batch of unknown fate. A batch's submits go
		// out together and are answered within moments, so the service holds its answers for a few
		// seconds meanwhile: the batch is in flight when the worker dies (its tasks made and billed,
		// their answers never reaching the run, or its submits waiting out a 429 in the node).
		await ctx.sim.configure({ latencyMs: KILL_HOLD_MS });
		const { sending } = await readHolder();
		const waitUntil = Date.now() + 30_000;
		while ((await readHolder()).sending === sending && Date.now() < waitUntil) await sleep(5);
		await sleep(KILL_HOLD_MS / 3);
		// The whole process group, task runner included, as when a container or machine dies.
		process.kill(-victim.pid, 'SIGKILL');
		await ctx.sim.configure({ latencyMs: 0 });
		night.kill = {
			at: Date.now(),
			worker: victim.name,
			execution: run.id,
			rows: await rowCount(db, ctx.tableId),
			submitted: (await ctx.sim.tasks()).length,
		};
		run.status = 'killed';
		if (
			night.sweep?.id !== undefined &&
			worker === executionsByWorker(stack.workers).get(String(night.sweep.id))
		)
			night.sweep.status = 'killed';
		info(
			`killed ${victim.name} (SIGKILL) running submit run ${run.id}, ${night.kill.rows} rows recorded`,
		);
		night.restarting = (async () => {
			await sleep(options.restartAfterSeconds * 1000);
			const replacement = await stack.addWorker(`worker-${stack.workers.length + 1}`);
			night.kill.replacement = replacement.name;
			night.kill.restartedAt = Date.now();
		})().finally(() => {
			night.restarting = undefined;
		});
	};

	const tickOutage = async () => {
		const outage = night.outage;
		if (outage.state === 'waiting') {
			const due = night.rows >= options.outageAt * options.products || night.submitDone;
			const sweep = night.sweep;
			if (!due || sweep?.id === undefined || sweep.status) return;
			if ((await executionStatus(db, sweep.id)) !== 'running') return;
			await ctx.sim.configure({ outage: options.outageScope });
			Object.assign(outage, { state: 'on', from: Date.now(), sweep: sweep.id });
			info(`service down (${options.outageScope}) during sweep ${sweep.id}`);
		} else if (
			outage.state === 'on' &&
			Date.now() >= (outage.from ?? 0) + options.outageSeconds * 1000
		) {
			await ctx.sim.configure({ outage: 'none' });
			Object.assign(outage, { state: 'over', to: Date.now() });
			info('service up again');
		}
	};

	const tickSweep = async () => {
		const sweep = night.sweep;
		if (sweep) {
			if (!(await ended(sweep, ctx.copies.collect.workflow))) return;
			sweep.endedAt = Date.now();
			sweep.openAfter = (await tableRows(db, ctx.tableId)).filter(ctx.isOpen).length;
			night.sweeps.push(sweep);
			night.sweep = undefined;
			info(
				`sweep ${sweep.id} ended ${sweep.status} after ${formatDuration(sweep.endedAt - sweep.startedAt)}, ${sweep.openAfter} rows left open`,
			);
			return;
		}
		if (Date.now() < night.nextSweepAt) return;
		night.sweep = await start(ctx.copies.collect);
		night.nextSweepAt = Date.now() + options.sweepSeconds * 1000;
	};

	/** The catalog is through, the outage over, and the last sweep, started after the last row, left nothing open. */
	const finished = () => {
		const last = night.sweeps[night.sweeps.length - 1];
		const lastRun = night.submitRuns[night.submitRuns.length - 1];
		return (
			night.submitDone &&
			night.submitting.length === 0 &&
			night.outage.state === 'over' &&
			!night.sweep &&
			last !== undefined &&
			last.startedAt > (lastRun?.endedAt ?? 0) &&
			last.openAfter === 0
		);
	};

	info(
		`a tick of the submit schedule every ${options.submitEverySeconds} s (a run reads at most ${options.pagesPerRun} pages of ${options.productsPerPage}); a sweep every ${options.sweepSeconds} s`,
	);
	for (;;) {
		night.rows = await rowCount(db, ctx.tableId);
		await tickSubmit();
		await tickKill();
		await tickOutage();
		await tickResolve();
		await tickSweep();
		if (finished()) break;
		if (Date.now() > deadline) {
			night.timedOut = true;
			info(`the night did not finish within ${formatDuration(deadline - startedAt)}`);
			break;
		}
		await sleep(1000);
	}
	await night.restarting;
	if (night.outage.state === 'on') await ctx.sim.configure({ outage: 'none' });
	night.endedAt = Date.now();
	// What n8n finally recorded may differ from what the bench saw end a run: a new worker's
	// start-up recovery marks executions crashed that another worker then finishes.
	for (const run of [...night.submitRuns, ...night.submitting, ...night.sweeps])
		if (run.id !== undefined) run.recorded = await executionStatus(db, run.id);
	// A run the bench saw let go of the run ends as n8n recorded it.
	for (const run of night.submitRuns) run.status ??= run.recorded;
	return {
		startedAt: night.startedAt,
		endedAt: night.endedAt,
		boundMs,
		timedOut: night.timedOut,
		submitRuns: night.submitRuns,
		overlaps: night.overlaps,
		directHandovers: night.directHandovers,
		ticks: night.ticks,
		resolved: night.resolved,
		sweeps: night.sweeps,
		kill: night.kill,
		outage: night.outage,
	};
}

module.exports = { runNight };
