// Prints the closing line CI reads: "N passed, N failed" alone on a line.
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`;
		process.stdout.write(`\njest: ${line}\n`);
	}
}
module.exports = SummaryReporter;
