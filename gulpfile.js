const fs = require('fs');
const path = require('path');
const { task, src, dest, parallel } = require('gulp');

// A source deleted since the last build must not leave its compiled file behind for npm pack.
task('clean', async () => fs.rmSync('dist', { recursive: true, force: true }));

// tsc emits only JavaScript; n8n reads the icons and the codex file (*.node.json) from dist as files.
task('build:icons', () => copy('**/*.{png,svg}'));
task('build:codex', () => copy('**/*.node.json'));
task('build:assets', parallel('build:icons', 'build:codex'));

function copy(pattern) {
	return Promise.all(
		['nodes', 'credentials'].map((folder) =>
			finished(
				src(path.resolve(folder, pattern), { encoding: false }).pipe(dest(path.resolve('dist', folder))),
			),
		),
	);
}

function finished(stream) {
	return new Promise((resolve, reject) => stream.on('finish', resolve).on('error', reject));
}
