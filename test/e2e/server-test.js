#!/usr/bin/env node
// @ts-check
'use strict';

// Every suite of lib/server-suites.js on one `n8n start` per pin, as lib/matrix.js gives them:
// what `npm test` runs for each pin. `--n8n 2.41.0` narrows the pins. Environment:
// PRODUCT_IMAGE_E2E_SKIP_BUILD=1, PRODUCT_IMAGE_E2E_KEEP=1, PRODUCT_IMAGE_E2E_CACHE, as for run.js.

const { runSuite } = require('./lib/suite');
const { runServerSuites, sharedStartSuites } = require('./lib/server-suites');

runSuite('server suites', () => runServerSuites(Object.keys(sharedStartSuites())));
