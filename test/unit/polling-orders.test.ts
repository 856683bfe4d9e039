import { ORDERS } from '../../bench/pollingOrders';
import { usePollingOrders } from './pollingOrders';

// Every order the polling benches run, waited for by the node in n8n's engine on a clock the test
// moves, against a fixed poller of the same 5 s interval on the same durations and lanes (see
// pollingOrders.ts). The goals: within 1.05× the ideal lanes, at most 1.5× the fixed poller's
// queries, no task seen later than the fixed poller sees it, similar tasks seen a median 0.25 s
// after they finish. Every order keeps to the query budget. Where the schedule does not reach the
// wall or median goal yet, the order is listed below and held to what it reaches, so a change that
// loses ground fails here.

const compare = usePollingOrders();

/** The orders held to a looser bound than the goal, and that bound. */
const WALL_SHORT: Record<string, number> = { 'a step down': 1.08 };
const MEDIAN_SHORT_MS = 350;

test.each(ORDERS.map((order) => [order.name, order] as const))(
	'%s: no task seen finished later than the fixed poller sees it; at most 1.5× the fixed poller’s queries; the batch within 1.05× the ideal lanes, or the bound the order is listed with',
	async (name, order) => {
		const figures = await compare(order);
		expect(figures.later).toBe(0);
		expect(figures.wall).toBeLessThanOrEqual(figures.fixedWall);
		expect(figures.wall).toBeLessThanOrEqual(WALL_SHORT[name] ?? 1.05);
		expect(figures.queries).toBeLessThanOrEqual(1.5);
		if (order.similar) expect(figures.medianDelayMs).toBeLessThanOrEqual(MEDIAN_SHORT_MS);
	},
	600_000,
);
