// Closes a run with one plain line, "N passed, N failed, N skipped", that CI reads as the verdict.
// On stderr, like Jest's own summary, so that it comes last.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests, numRuntimeErrorTestSuites } = results;
    const failed = numFailedTests + numRuntimeErrorTestSuites;
    process.stderr.write(`\ntests: ${numPassedTests} passed, ${failed} failed, ${numPendingTests + numTodoTests} skipped\n`);
  }
}

module.exports = SummaryReporter;
