// @ts-check
'use strict';

// Run without a person, this example stops at its first form: the analysis is made and handed
// on with what the person confirms, and nothing is planned or generated. The run with a person
// answering both forms is test/e2e/review-test.js.

const assert = require('node:assert/strict');

/** @type {import('../lib/expectation').Expectation} */
const expectation = (runData, ctx) => {
	assert.equal(ctx.nodeError('Analyze product'), undefined, 'Analyze product failed');
	const [analysis] = ctx.items('Analyze product');
	assert.equal(analysis.json.facts_to_confirm_count, 1, 'the simulator infers one fact');
	assert.match(String(analysis.json.review_text), /^Confirm before use: 1 fact/);
	assert.equal(ctx.lastNode(), 'Confirm the facts', 'the run waits for the person');
	for (const node of ['Plan A+ content', 'Approve the plan', 'Generate A+ images'])
		assert.equal(runData[node], undefined, `"${node}" ran before anyone answered`);
	assert.equal(ctx.stats.byRoute?.plan ?? 0, 0, 'a plan was requested before anyone answered');
	assert.equal(ctx.stats.submitsAccepted, 0, 'a generation was billed before anyone answered');
};

/** The queue suite runs examples to their end by a webhook: this one ends at a person. */
expectation.waitsForPerson = true;

module.exports = expectation;
