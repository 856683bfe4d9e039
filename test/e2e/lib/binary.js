// @ts-check
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/**
 * Where n8n keeps stored binaries: `<n8n folder>/storage` from 2.x on, `binaryData` before,
 * unless N8N_BINARY_DATA_STORAGE_PATH moves it.
 * @param {string} n8nFolder
 * @param {NodeJS.ProcessEnv} [env]
 */
function storageRoots(n8nFolder, env = {}) {
	return [
		env.N8N_BINARY_DATA_STORAGE_PATH,
		env.N8N_STORAGE_PATH,
		path.join(n8nFolder, 'storage'),
		path.join(n8nFolder, 'binaryData'),
	].filter(/** @returns {s is string} */ (s) => typeof s === 'string' && s.length > 0);
}

/** @param {string} dir @param {string} base @param {number} depth @returns {string | undefined} */
function findFile(dir, base, depth) {
	if (depth < 0 || !fs.existsSync(dir)) return undefined;
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isFile() && entry.name === base) return full;
		if (entry.isDirectory()) {
			const found = findFile(full, base, depth - 1);
			if (found) return found;
		}
	}
	return undefined;
}

/**
 * The bytes of one binary entry of a run: inline base64 in the default mode, or a file
 * named by the entry's `id` (`filesystem-v2:workflows/.../binary_data/<uuid>`) otherwise.
 * @param {any} entry an item's `binary[field]`
 * @param {{n8nFolder: string, env?: NodeJS.ProcessEnv}} where
 * @returns {{bytes: Buffer, file?: string}}
 */
function readBinary(entry, where) {
	if (!entry || typeof entry !== 'object') throw new Error('not a binary entry');
	if (typeof entry.id === 'string' && entry.id.includes(':')) {
		const colon = entry.id.indexOf(':');
		const mode = entry.id.slice(0, colon);
		const rel = entry.id.slice(colon + 1);
		if (!mode.startsWith('filesystem'))
			throw new Error(
				`binary ${entry.id} is stored in mode "${mode}", which this suite cannot read`,
			);
		for (const root of storageRoots(where.n8nFolder, where.env)) {
			const file = path.join(root, rel);
			if (fs.existsSync(file)) return { bytes: fs.readFileSync(file), file };
		}
		const fallback = findFile(where.n8nFolder, path.basename(rel), 12);
		if (fallback) return { bytes: fs.readFileSync(fallback), file: fallback };
		throw new Error(`binary ${entry.id} not found under ${where.n8nFolder}`);
	}
	if (typeof entry.data === 'string' && entry.data.length > 0)
		return { bytes: Buffer.from(entry.data, 'base64') };
	throw new Error('binary entry has neither an id nor inline data');
}

/**
 * Width and height from a PNG's IHDR chunk; undefined for anything that is not a PNG.
 * @param {Buffer} bytes
 */
function pngSize(bytes) {
	const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
	if (
		bytes.length < 24 ||
		!bytes.subarray(0, 8).equals(signature) ||
		bytes.toString('latin1', 12, 16) !== 'IHDR'
	)
		return undefined;
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * An item's files by field: `binary`, or under the workflow setting Binary Mode "combined" (n8n
 * 2.x) the item's JSON `_files`, where n8n's engine moves them.
 * @param {any} item
 * @returns {Record<string, any>}
 */
function itemBinaries(item) {
	return { ...(item?.binary ?? {}), ...(item?.json?._files ?? {}) };
}

/** @param {any} item @param {string} [field] */
function itemBinary(item, field = 'data') {
	return itemBinaries(item)[field];
}

module.exports = { readBinary, pngSize, itemBinaries, itemBinary };
