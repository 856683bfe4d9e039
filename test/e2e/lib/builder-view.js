#!/usr/bin/env node
// @ts-check
'use strict';

// Run by the Node of one installed n8n: what its MCP builder tools return for one node type,
// made by the same modules its node catalog calls: `search_nodes` (@n8n/ai-utilities'
// searchCodeBuilderNodes) and `get_node_types` for a community node (n8n's
// synthesizeNodeTypeDef). Arguments: the n8n install folder, a file holding the node type as
// n8n serves it, and the search query. Prints {search, typeDefinition} as JSON.

const fs = require('node:fs');
const path = require('node:path');

const [installDir, descriptionFile, query] = process.argv.slice(2);
const modules = path.join(installDir, 'node_modules');
const description = JSON.parse(fs.readFileSync(descriptionFile, 'utf8'));

const catalog = require(
	path.join(modules, '@n8n', 'ai-utilities', 'dist', 'cjs', 'node-catalog', 'index.js'),
);
const { synthesizeNodeTypeDef } = require(
	path.join(modules, 'n8n', 'dist', 'modules', 'mcp-registry', 'synthesize-type-def.js'),
);
const found = catalog.searchCodeBuilderNodes(new catalog.NodeTypeParser([description]), [query]);
process.stdout.write(
	JSON.stringify({
		search: typeof found === 'string' ? found : found.results,
		typeDefinition: synthesizeNodeTypeDef(description),
	}),
);
