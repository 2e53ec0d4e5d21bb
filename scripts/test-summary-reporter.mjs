// A vitest reporter that writes the counts scripts/run-tests.mjs closes with to the file
// named by NRICTL_TEST_SUMMARY. Counting failed tests is not enough: a test file that
// fails to load or crashes, a suite whose hook throws and an error outside any test all
// fail the run without failing a single test.
import { writeFileSync } from 'node:fs';

export default class TestSummaryReporter {
  onTestRunEnd(testModules, unhandledErrors, reason) {
    const file = process.env.NRICTL_TEST_SUMMARY;
    if (!file) return;
    const counts = {
      passed: 0,
      failed: 0,
      skipped: 0,
      brokenFiles: 0,
      brokenSuites: 0,
      outsideErrors: unhandledErrors.length,
      reason,
    };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        // "pending" only survives an interrupted run: those tests did not run.
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (module.errors().length > 0) counts.brokenFiles++;
      for (const suite of module.children.allSuites()) {
        if (suite.errors().length > 0) counts.brokenSuites++;
      }
    }
    writeFileSync(file, JSON.stringify(counts));
  }
}
