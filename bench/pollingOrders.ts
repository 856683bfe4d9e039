/*
 * The orders in which the polling benches' service finishes tasks, in seconds by submit order, and
 * the lanes they run in. The polling bench, the real-n8n polling bench and the virtual-clock tests
 * of the schedule all run these.
 */

export interface PollingOrder {
	name: string;
	/** How the durations are drawn, in words. */
	durations: string;
	lanes: number;
	seconds: number[];
	/** Judged by how soon tasks are seen finished, not by the wall time alone. */
	similar?: boolean;
}

/** A share in [0, 1) per submit order, spread evenly (the simulator's own sequence). */
const share = (order: number) => (((order + 1) * 2654435761) % 4294967296) / 4294967296;
const draws = (count: number, from: number, to: number) =>
	Array.from(
		{ length: count },
		(_, order) => from + Math.round((to - from) * 1000 * share(order)) / 1000,
	);

/**
 * A fixed poller polls at 5 s and every 5 s after: a task finishing just after such a poll is seen
 * at it or an interval later by a timer's jitter, for either poller alike. Such a duration moves
 * 0.4 s past the poll, so a comparison measures the schedules, not the jitter.
 */
const clearOfPolls = (seconds: number) => {
	const poll = Math.round(seconds / 5) * 5;
	return seconds - poll > -0.1 && seconds - poll < 0.4 ? poll + 0.4 : seconds;
};

const throughput = draws(30, 8, 20);
const low = draws(15, 8, 12);
const high = draws(15, 16, 20);

const ORDERS: PollingOrder[] = [
	{ name: 'similar', durations: '18–24 s', lanes: 10, seconds: draws(30, 18, 24), similar: true },
	{ name: 'steady', durations: '8–20 s in no order', lanes: 10, seconds: throughput },
	{
		name: 'rising',
		durations: '8–20 s, shortest first',
		lanes: 10,
		seconds: [...throughput].sort((a, b) => a - b),
	},
	{
		name: 'falling',
		durations: '8–20 s, longest first',
		lanes: 10,
		seconds: [...throughput].sort((a, b) => b - a),
	},
	{
		name: 'a step up',
		durations: '15 of 8–12 s, then 15 of 16–20 s',
		lanes: 10,
		seconds: [...low, ...high],
	},
	{
		name: 'a step down',
		durations: '15 of 16–20 s, then 15 of 8–12 s',
		lanes: 10,
		seconds: [...high, ...low],
	},
	{ name: 'spread', durations: '6–40 s, all at once', lanes: 20, seconds: draws(20, 6, 40) },
	{
		name: 'long-tailed',
		durations: 'from 6 s, Pareto-tailed (α 1.5, capped at 90 s), all at once',
		lanes: 20,
		seconds: Array.from({ length: 20 }, (_, order) =>
			Math.min(90, Math.round(6 * Math.pow(1 - share(order), -1 / 1.5) * 10) / 10),
		),
	},
	{
		name: 'two populations',
		durations: '3 of 6–8 s among 17 of 30–36 s, all at once',
		lanes: 20,
		seconds: Array.from(
			{ length: 20 },
			(_, order) =>
				Math.round((order % 7 === 3 ? 6 + 2 * share(order) : 30 + 6 * share(order)) * 10) / 10,
		),
	},
].map((order) => ({ ...order, seconds: order.seconds.map(clearOfPolls) }));

export { ORDERS };
