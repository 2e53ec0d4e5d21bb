// Runs the vitest suite and closes with one plain line, "tests: N passed, N failed,
// N skipped", so that any CI reading only the last lines sees what ran.
// Arguments are passed to vitest (e.g. a test path filter).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'nrictl-tests-'));
const report = join(dir, 'vitest.json');
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
let summary = 'tests: no report was written (vitest crashed before the end)';
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
} catch {
  // keep the crash summary
}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
process.exit(run.status ?? 1);
