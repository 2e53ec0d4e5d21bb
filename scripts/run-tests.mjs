// Runs the vitest suite and closes with one plain line, "tests: N passed, N failed,
// N skipped", so that any CI reading only the last lines sees what ran. "failed" counts
// everything that failed the run: failed tests, test files that failed to load or
// crashed, suites whose hooks threw, errors outside any test, and a run that leaves
// anything behind in its temporary directory. It is never 0 when the exit code is not.
// Arguments are passed to vitest (e.g. a test path filter, or --config).
//
// Nothing left behind: the tests run with TMPDIR set to a fresh directory of this run,
// TMPDIR/nrictl-tests-XXXXXX/tmp (0755, so that others reach it exactly when they reach
// TMPDIR: a private TMPDIR stays private). Everything a test, a child process or the
// product under test makes there counts; it must be empty when the run ends, else the
// run fails, listing what is left, and keeps it for a look. So do directories the tests
// made elsewhere for other users to reach (test/support/reachable-setup.ts records where).
// Nothing is excused: tsx runs without its cache (TSX_DISABLE_CACHE), which it would
// keep in TMPDIR/tsx-UID for the next run, and no other tool of the suite writes there.
// A test file that fails (a test that timed out, say) has its processes ended and its
// temporary directories removed (test/support/after-failure.ts), here once more at the
// end: a failure fails the run, and leaves nothing behind all the same.
// An interrupted run (Ctrl-C, or a SIGTERM or SIGHUP) leaves nothing either: this process
// passes the signal to vitest and outlives it, ends the processes of the run that still
// run (found by the run's own environment), removes what the tests made, and says the run
// was interrupted, exiting as the signal would (130 for Ctrl-C).
// New entries in TMPDIR itself are listed too, as a note: other programs may share it.
//
// The tests that run the built CLI need dist/ built from the sources as they are: when it
// is missing or stale (scripts/build-stamp.mjs), `npm run build` runs first, once, before
// any test starts, so `npm ci && npm test` works without a build step and an up-to-date
// dist/ is not built again.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { whyStale } from './build-stamp.mjs';
import { endProcesses } from './end-processes.mjs';

const stale = whyStale();
if (stale) {
  console.log(`Building first (${stale}): npm run build`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) {
    console.log(
      `tests: 0 passed, 1 failed, 0 skipped (npm run build ${build.signal ? `was killed by ${build.signal}` : `exited with code ${build.status}`}; no test ran)`,
    );
    process.exit(build.status || 1);
  }
}

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const reporter = fileURLToPath(new URL('./test-summary-reporter.mjs', import.meta.url));
const parent = tmpdir();
const before = new Set(readdirSync(parent));
const dir = mkdtempSync(join(parent, 'nrictl-tests-'));
chmodSync(dir, 0o755);
const testTmp = join(dir, 'tmp');
mkdirSync(testTmp);
chmodSync(testTmp, 0o755);
const summaryFile = join(dir, 'summary.json');
const reachableFile = join(dir, 'reachable.json');
const failedFilesDirs = join(dir, 'failed-files-dirs');
const run = await runVitest([vitest, 'run', '--reporter=default', `--reporter=${reporter}`, ...process.argv.slice(2)], {
  ...process.env,
  TMPDIR: testTmp,
  TSX_DISABLE_CACHE: '1',
  NRICTL_TEST_SUMMARY: summaryFile,
  NRICTL_TEST_REACHABLE_RECORD: reachableFile,
  NRICTL_TEST_FAILED_FILES_DIRS: failedFilesDirs,
});
// Every process of the run carries its summary file in its environment: what still runs
// now that vitest has ended (a simulator an interrupted test started, say) is ended.
const ended = await endRunProcesses(`NRICTL_TEST_SUMMARY=${summaryFile}`);
if (ended > 0) console.log(`Ended ${ended} process${ended === 1 ? '' : 'es'} the tests had left running.`);

let counts;
try {
  counts = JSON.parse(readFileSync(summaryFile, 'utf8'));
} catch {
  // vitest ended before its reporters ran: handled below as a failure with no counts.
}
// The temporary directories of test files that failed (test/support/after-failure.ts):
// removed at the file's end, and once more now that nothing of the run can still write.
let owed = [];
try {
  owed = readFileSync(failedFilesDirs, 'utf8').split('\n').filter(Boolean);
} catch {
  // No test file failed, or none had made a directory.
}
for (const path of owed) rmSync(path, { recursive: true, force: true });
rmSync(failedFilesDirs, { force: true });
let elsewhere;
try {
  elsewhere = JSON.parse(readFileSync(reachableFile, 'utf8')).dir;
} catch {
  // No directory was made elsewhere (TMPDIR is reachable), or the set-up did not run.
}
if (run.interrupted) {
  // Cut short by its user: what the tests made is nobody's to look at.
  rmSync(testTmp, { recursive: true, force: true });
  mkdirSync(testTmp);
  if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
}
const left = readdirSync(testTmp).map((name) => join(testTmp, name));
if (elsewhere && existsSync(elsewhere)) left.push(...readdirSync(elsewhere).map((name) => join(elsewhere, name)));
if (left.length === 0) rmSync(dir, { recursive: true, force: true });
else {
  rmSync(summaryFile, { force: true });
  console.log(`The tests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} behind (kept for a look):`);
  for (const path of left) console.log(`  ${path}`);
}
const appeared = readdirSync(parent).filter((name) => !before.has(name) && join(parent, name) !== dir);
if (appeared.length > 0)
  console.log(
    `Note: ${parent} has ${appeared.length} new entr${appeared.length === 1 ? 'y' : 'ies'} (not the tests', whose TMPDIR was ${testTmp}; another program may share ${parent}): ${appeared.join(', ')}`,
  );

const exitCode = run.status ?? 1;
const how = run.signal ? `was killed by ${run.signal}` : `exited with code ${exitCode}`;
let line;
if (!counts && run.interrupted) {
  line = `tests: 0 passed, 1 failed, 0 skipped (interrupted by ${run.interrupted} before vitest reported any result)`;
} else if (!counts) {
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
  if (run.interrupted) notes.push(`interrupted by ${run.interrupted}`);
  else if (counts.reason === 'interrupted') notes.push('the run was interrupted');
  if (left.length > 0) notes.push(`${plural(left.length, 'entry', 'entries')} left behind, listed above`);
  let failed =
    counts.failed + counts.brokenFiles + counts.brokenSuites + counts.outsideErrors + (left.length > 0 ? 1 : 0);
  if (failed === 0 && run.interrupted) {
    // Stopped, even if only after its last test: the run exits as the signal would, a failure.
    failed = 1;
  } else if (failed === 0 && exitCode !== 0) {
    // Whatever made vitest fail is not in the counts; it still is one failure.
    failed = 1;
    notes.push(`vitest ${how} though no test failed; see above`);
  }
  line = `tests: ${counts.passed} passed, ${failed} failed, ${counts.skipped} skipped${notes.length ? ` (${notes.join(', ')})` : ''}`;
  counts.failedTotal = failed;
}
console.log(line);
if (run.interrupted) process.exit(128 + constants.signals[run.interrupted]);
process.exit(exitCode !== 0 ? exitCode : (counts?.failedTotal ?? 1) > 0 ? 1 : 0);

/**
 * Runs vitest to its end. A signal that would end this process (Ctrl-C reaches vitest
 * from the terminal too; a SIGTERM may come to this process alone) is passed on, and this
 * process waits on: what the run leaves must still be removed and said.
 */
function runVitest(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit', env });
    let interrupted;
    const passOn = (signal) => {
      interrupted ??= signal;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, passOn);
    child.on('error', (err) => {
      console.error(`could not start vitest: ${err.message}`);
      resolve({ status: 1, signal: null, interrupted });
    });
    child.on('exit', (status, signal) => {
      for (const s of signals) process.off(s, passOn);
      resolve({ status, signal, interrupted });
    });
  });
}

/** The pids of this user's processes whose environment holds `marker` (Linux /proc; none elsewhere). */
function processesMarked(marker) {
  if (!existsSync('/proc')) return [];
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(marker)) pids.push(Number(name));
    } catch {
      // gone meanwhile, or another user's
    }
  }
  return pids;
}

/** Ends the processes marked so (endProcesses, 5 s of grace); resolves with how many there were. */
async function endRunProcesses(marker) {
  const pids = processesMarked(marker);
  await endProcesses(pids, 5000);
  return pids.length;
}
