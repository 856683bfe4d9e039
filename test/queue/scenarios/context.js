// @ts-check
'use strict';

/**
 * What every scenario gets: the running stack, the simulator, and two ways to speak:
 * `report` prints a measured line, `check` records a pass or a failure.
 * @typedef {object} Context
 * @property {Awaited<ReturnType<typeof import('../lib/stack').startStack>>} stack
 * @property {import('../../e2e/lib/simulator').RunningSimulator} sim
 * @property {(line: string) => void} report
 * @property {(ok: boolean, what: string) => void} check
 */

module.exports = {};
