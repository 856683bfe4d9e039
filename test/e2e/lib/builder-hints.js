// @ts-check
'use strict';

// What n8n 2.x hands its AI workflow builder about the node: the node type the instance serves
// (GET /types/nodes.json, which the editor and the builder read) carries the package's builder
// hints, the nodes they relate it to exist on that instance, and the instance's own builder
// tools (search_nodes, get_node_types) show every hint.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { REPO_ROOT } = require('./config');

const NODE_TYPE = 'n8n-nodes-product-image.productImage';

/** n8n reads builder hints from 2.x on; older versions serve the key but no builder uses it. */
function readsBuilderHints(/** @type {string} */ version) {
	return Number(version.split('.')[0]) >= 2;
}

/**
 * Every `propertyHint` of a node type, by where it sits: `parameter`, `collection.option` or
 * `parameter=value`, once per text.
 * @param {any[]} properties
 * @param {string} [prefix]
 * @returns {Set<string>}
 */
function propertyHints(properties, prefix = '') {
	const found = new Set();
	for (const property of properties) {
		const where = `${prefix}${property.name}`;
		if (property.builderHint) found.add(`${where}: ${property.builderHint.propertyHint}`);
		for (const option of property.options ?? []) {
			if (option.builderHint)
				found.add(`${where}=${option.value}: ${option.builderHint.propertyHint}`);
		}
		if (property.type === 'collection')
			for (const hint of propertyHints(property.options ?? [], `${where}.`)) found.add(hint);
	}
	return found;
}

/** The node type as the package builds it (its dist/, which the tarball holds). */
function builtDescription() {
	const { ProductImage } = require(
		path.join(REPO_ROOT, 'dist', 'nodes', 'ProductImage', 'ProductImage.node.js'),
	);
	return new ProductImage().description;
}

/**
 * @param {import('./n8n-server').N8nServer} server
 * @param {import('../install-n8n').N8nInstall} install
 * @param {string} workFolder
 * @returns {Promise<string[]>} what is wrong, empty when all is as the package builds it
 */
async function checkBuilderHints(server, install, workFolder) {
	const reply = await server.get('/types/nodes.json');
	if (reply.status !== 200 || !Array.isArray(reply.json))
		return [`GET /types/nodes.json answered HTTP ${reply.status}`];
	/** @type {any[]} */
	const served = reply.json;
	const built = builtDescription();
	const entry = served.find((type) => type.name === NODE_TYPE);
	if (!entry) return [`n8n serves no node type ${NODE_TYPE}`];
	const problems = [];
	if (JSON.stringify(entry.builderHint) !== JSON.stringify(built.builderHint))
		problems.push('the served node type does not carry the node builder hint the package builds');
	const names = new Set(served.map((type) => type.name));
	for (const related of entry.builderHint?.relatedNodes ?? [])
		if (!names.has(related.nodeType))
			problems.push(`related node ${related.nodeType} is not on this n8n`);
	const expected = propertyHints(built.properties);
	const got = propertyHints(entry.properties);
	if (expected.size === 0) problems.push('the package builds no parameter builder hints');
	for (const hint of expected) if (!got.has(hint)) problems.push(`not served: ${hint}`);

	const file = path.join(workFolder, 'served-node-type.json');
	fs.writeFileSync(file, JSON.stringify(entry));
	const view = JSON.parse(
		execFileSync(
			install.node.node,
			[path.join(__dirname, 'builder-view.js'), install.dir, file, 'product image'],
			{ encoding: 'utf8' },
		),
	);
	if (!view.search.includes(`@builderHint ${built.builderHint.searchHint}`))
		problems.push("search_nodes does not show the node's search hint");
	for (const related of built.builderHint.relatedNodes)
		if (!view.search.includes(`- ${related.nodeType}: "${related.relationHint}"`))
			problems.push(`search_nodes does not show the related node ${related.nodeType}`);
	for (const hint of expected) {
		const text = hint.slice(hint.indexOf(': ') + 2);
		if (
			!view.typeDefinition.includes(`@builderHint ${text}`) &&
			!view.search.includes(`@builderHint ${text}`)
		)
			problems.push(`neither search_nodes nor get_node_types shows: ${hint}`);
	}
	return problems;
}

module.exports = { checkBuilderHints, readsBuilderHints };
