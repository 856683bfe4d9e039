// @ts-check
'use strict';

// Where StrykerJS keeps every mutant's result between runs (its incremental file): in the
// project's cache folder, outside the repository, so that every clone on the machine reuses it and
// no run rewrites megabytes of history. What the page needs from it is kept small in the repository
// (test/mutation/results.json).
const path = require('node:path');
const { cacheDir } = require('../e2e/lib/config');

const RECORD = path.join(cacheDir(), 'mutation', 'incremental.json');

module.exports = { RECORD };
