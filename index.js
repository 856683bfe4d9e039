// n8n loads the node and credential from the paths in package.json's "n8n" block;
// this entry point exists for tools that require the package itself.
module.exports = {};
