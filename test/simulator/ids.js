// @ts-check
'use strict';

const crypto = require('node:crypto');

/** @returns {string} */
const requestId = () => `req_${crypto.randomBytes(8).toString('hex')}`;

/** @returns {string} */
const taskId = () => `task_${crypto.randomBytes(12).toString('hex')}`;

/** @returns {string} */
const uuid = () => crypto.randomUUID();

module.exports = { requestId, taskId, uuid };
