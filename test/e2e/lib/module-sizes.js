// @ts-check
'use strict';

// A+ modules have exact pixel sizes and Amazon refuses others: what the A+ examples hand on must
// be exactly the planned module's size, fitted down from a generation that was large enough.

const assert = require('node:assert/strict');

/**
 * @param {import('./expectation').Context} ctx
 * @param {string} planNode the node whose items carry `module`, `target_width` and `target_height`
 */
function checkModuleSizes(ctx, planNode) {
  const planned = ctx.items(planNode);
  const generated = ctx.items('Generate A+ images');
  const fitted = ctx.items('Fit to module size');
  assert.equal(fitted.length, planned.length, 'one fitted image per planned module');
  planned.forEach((plan, index) => {
    const { module, target_width: width, target_height: height } = plan.json;
    const made = ctx.pngSize(ctx.readBinary(generated[index].binary.data).bytes);
    const out = ctx.pngSize(ctx.readBinary(fitted[index].binary.data).bytes);
    assert.ok(made && out, `image ${index} (${module}) is not a PNG`);
    assert.ok(made.width >= width && made.height >= height, `image ${index} (${module}) was generated at ${made.width}x${made.height}, below its ${width}x${height} module: fitting it upscales`);
    assert.deepEqual([out.width, out.height], [width, height], `image ${index} (${module}) leaves at ${out.width}x${out.height}, not the module's ${width}x${height}`);
    assert.equal(fitted[index].binary.data.mimeType, 'image/png');
  });
  // The resolution choice: the smallest label whose long side covers the module.
  for (const task of ctx.tasks) {
    const plan = planned.find((p) => p.json.recommended_prompt === task.body.plan_prompt);
    if (!plan) continue;
    const longSide = Math.max(Number(plan.json.target_width), Number(plan.json.target_height));
    assert.equal(task.body.resolution, longSide > 1024 ? '2k' : '1k', `resolution for a ${plan.json.target_size} module`);
  }
}

/** The long side the simulator gives a 1k image, as the examples' resolution choice assumes. */
const A_PLUS_SIMULATOR = { imageLongSide: 1024 };

module.exports = { checkModuleSizes, A_PLUS_SIMULATOR };
