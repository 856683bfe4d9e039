const path = require('path');
const { task, src, dest } = require('gulp');

// tsc emits only JavaScript; n8n loads the node and credential icons from dist as files.
task('build:icons', copyIcons);

function copyIcons() {
	const nodeIcons = src(path.resolve('nodes', '**', '*.{png,svg}'), { encoding: false });
	const credentialIcons = src(path.resolve('credentials', '**', '*.{png,svg}'), { encoding: false });
	return Promise.all([
		streamDone(nodeIcons.pipe(dest(path.resolve('dist', 'nodes')))),
		streamDone(credentialIcons.pipe(dest(path.resolve('dist', 'credentials')))),
	]);
}

function streamDone(stream) {
	return new Promise((resolve, reject) => stream.on('finish', resolve).on('error', reject));
}
