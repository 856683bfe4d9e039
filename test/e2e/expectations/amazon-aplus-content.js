// @ts-check
'use strict';

// Per ASIN: an analysis, an A+ plan split into its four modules, and one image per module at the
// module's aspect ratio, generated with the plan's prompt and style guide; the binary reaches the
// MD5 step of Amazon's upload flow.

const assert = require('node:assert/strict');

const MODULES = { hero970: 970 / 600, core: 970 / 600, usage: 970 / 600, specs: 970 / 600 };

/** @type {import('../lib/expectation').Expectation} */
const expectation = (_runData, ctx) => {
  const products = ctx.items('Pick product fields');
  assert.equal(products.length, 2, 'two catalog items');
  assert.equal(ctx.items('Analyze product').length, 2);

  const planned = ctx.items('Plan A+ modules');
  assert.equal(planned.length, 2 * Object.keys(MODULES).length, 'one item per module per product');
  assert.deepEqual([...new Set(planned.map((item) => item.json.module))].sort(), Object.keys(MODULES).sort());

  const images = ctx.items('Generate A+ images');
  assert.equal(images.length, planned.length, 'one image per planned module');
  assert.equal(ctx.stats.submitsAccepted, planned.length);
  images.forEach((item, index) => {
    const { bytes } = ctx.readBinary(item.binary.data);
    const size = ctx.pngSize(bytes);
    assert.ok(size, `image ${index} is not a PNG`);
    const module = String(planned[index].json.module);
    assert.ok(Math.abs(size.width / size.height - MODULES[/** @type {keyof typeof MODULES} */ (module)]) < 0.02, `image ${index} (${module}) is ${size.width}x${size.height}`);
  });

  for (const task of ctx.tasks) {
    assert.equal(typeof task.body.plan_prompt, 'string', 'plan_prompt travels with the A+ generation');
    assert.ok(task.body.series_style_guide, 'series_style_guide travels with the A+ generation');
    assert.equal(task.body.prompt, task.body.plan_prompt);
  }

  const hashes = ctx.items('MD5 of image');
  assert.equal(hashes.length, images.length);
  for (const item of hashes) assert.match(String(item.json.contentMD5), /^[A-Za-z0-9+/]{22}==$/);
};

module.exports = expectation;
