// Runs the vitest suite and closes with one plain line, "tests: N passed, N failed,
// N skipped", so that any CI reading only the last lines sees what ran. "failed" counts
// everything that failed the run: failed tests, test files that failed to load or
// crashed, suites whose hooks threw, errors outside any test. It is never 0 when the
// exit code is not.
// Arguments are passed to vitest (e.g. a test path filter, or --config).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const reporter = fileURLToPath(new URL('./test-summary-reporter.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'nrictl-tests-'));
const summaryFile = join(dir, 'summary.json');
const run = spawnSync(
  process.execPath,
  [vitest, 'run', '--reporter=default', `--reporter=${reporter}`, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    env: { ...process.env, NRICTL_TEST_SUMMARY: summaryFile },
  },
);

let counts;
try {
  counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
} catch {
  // vitest ended before its reporters ran: handled below as a failure with no counts.
}
rmSync(dir, { recursive: true, force: true });

const exitCode = run.status ?? 1;
const how = run.signal ? `was killed by ${run.signal}` : `exited with code ${exitCode}`;
let line;
if (!counts) {
  line = `tests: 0 passed, 1 failed, 0 skipped (vitest ${how} before reporting any result; see above)`;
} else {
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const notes = [];
  if (counts.brokenFiles) notes.push(`${plural(counts.brokenFiles, 'test file', 'test files')} failed to run`);
  if (counts.brokenSuites)
    notes.push(
      `${plural(counts.brokenSuites, 'suite', 'suites')} failed outside ${counts.brokenSuites === 1 ? 'its' : 'their'} tests`,
    );
  if (counts.outsideErrors) notes.push(`${plural(counts.outsideErrors, 'error', 'errors')} outside any test`);
  if (counts.reason === 'interrupted') notes.push('the run was interrupted');
  let failed = counts.failed + counts.brokenFiles + counts.brokenSuites + counts.outsideErrors;
  if (failed === 0 && exitCode !== 0) {
    // Whatever made vitest fail is not in the counts; it still is one failure.
    failed = 1;
    notes.push(`vitest ${how} though no test failed; see above`);
  }
  line = `tests: ${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped${notes.length ? ` (${notes.join(', ')})` : ''}`;
  counts.failedTotal = failed;
}
console.log(line);
process.exit(exitCode !== 0 ? exitCode : (counts?.failedTotal ?? 1) > 0 ? 1 : 0);
