// Closes a run with one plain line, "N passed, N failed, N skipped", that CI reads as the verdict.
// Written as the process exits, after Jest's own summary, so that it is the last line.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    const line = `\ntests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`;
    process.once('exit', () => process.stderr.write(line));
  }
}

module.exports = SummaryReporter;
