// @ts-check
'use strict';

/**
 * @typedef {object} Part
 * @property {string | undefined} name
 * @property {string | undefined} filename
 * @property {string | undefined} contentType
 * @property {Record<string, string>} headers lower-cased names
 * @property {Buffer} data
 */

/**
 * @param {string | undefined} contentType the request's Content-Type header
 * @returns {string | undefined}
 */
function boundaryOf(contentType) {
	if (!contentType || !/^multipart\/form-data\b/i.test(contentType.trim())) return undefined;
	const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	if (!m) return undefined;
	return m[1] !== undefined ? m[1] : m[2];
}

/**
 * @param {string} disposition
 * @param {string} param
 */
function dispositionParam(disposition, param) {
	// Anchored on ';' so that `name=` does not match inside `filename=`.
	const re = new RegExp(`(?:^|;)\\s*${param}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i');
	const m = re.exec(disposition);
	if (!m) return undefined;
	return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2].trim();
}

/**
 * Splits a multipart/form-data body. Works on bytes throughout, since file parts are
 * binary and may contain anything except the delimiter itself.
 * @param {Buffer} body
 * @param {string} boundary
 * @returns {Part[]}
 */
function parseMultipart(body, boundary) {
	const delimiter = Buffer.from(`--${boundary}`, 'latin1');
	const nextDelimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
	/** @type {Part[]} */
	const parts = [];

	let pos = body.indexOf(delimiter);
	if (pos < 0) throw new Error('multipart body has no boundary delimiter');
	pos += delimiter.length;

	for (;;) {
		if (body[pos] === 0x2d && body[pos + 1] === 0x2d) return parts; // closing "--"
		// Transport padding after a delimiter is allowed before its CRLF.
		while (body[pos] === 0x20 || body[pos] === 0x09) pos++;
		if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a)
			throw new Error('malformed multipart delimiter line');
		pos += 2;

		let headerText = '';
		let dataStart = pos + 2;
		if (body[pos] !== 0x0d || body[pos + 1] !== 0x0a) {
			const headerEnd = body.indexOf('\r\n\r\n', pos, 'latin1');
			if (headerEnd < 0) throw new Error('multipart part headers are not terminated');
			headerText = body.toString('utf8', pos, headerEnd);
			dataStart = headerEnd + 4;
		}

		const end = body.indexOf(nextDelimiter, dataStart);
		if (end < 0) throw new Error('multipart body is not terminated by its boundary');

		/** @type {Record<string, string>} */
		const headers = {};
		for (const line of headerText.split('\r\n')) {
			const colon = line.indexOf(':');
			if (colon <= 0) continue;
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
		}
		const disposition = headers['content-disposition'] || '';
		parts.push({
			name: dispositionParam(disposition, 'name'),
			filename: dispositionParam(disposition, 'filename'),
			contentType: headers['content-type'],
			headers,
			data: body.subarray(dataStart, end),
		});
		pos = end + nextDelimiter.length;
	}
}

module.exports = { boundaryOf, parseMultipart };
