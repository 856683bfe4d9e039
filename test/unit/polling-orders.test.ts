import { ORDERS } from '../../bench/pollingOrders';
import { compare } from './pollingOrders';

// Every order the polling benches run, on a clock the test moves: the node's wait against a fixed
// poller of the same 5 s interval on the same durations and lanes (see pollingOrders.ts).

const figures = new Map(
	ORDERS.map((order) => [
		order.name,
		compare(
			order.seconds.map((seconds) => Math.round(seconds * 1000)),
			order.lanes,
		),
	]),
);
const of = (name: string) => figures.get(name)!;

test.each(ORDERS.map((order) => order.name))(
	'%s: no task is seen finished later after its submit than the fixed poller sees it, and the batch ends no later',
	(name) => {
		expect(of(name).later).toBe(0);
		expect(of(name).wall).toBeLessThanOrEqual(of(name).fixedWall);
	},
);

test.each(['similar', 'steady', 'rising', 'falling'])(
	'%s: the batch ends within 1.05× the ideal lanes, at no more than 1.5× the fixed poller’s queries',
	(name) => {
		expect(of(name).wall).toBeLessThanOrEqual(1.05);
		expect(of(name).queries).toBeLessThanOrEqual(1.5);
	},
);

test.each(['a step down', 'long-tailed', 'two populations'])(
	'%s: at no more than 1.5× the fixed poller’s queries',
	(name) => {
		expect(of(name).queries).toBeLessThanOrEqual(1.5);
	},
);
