// scripts/run-tests.mjs is what CI reads: its closing line must report a failure whenever
// the exit code does. It runs here on tiny test files in a temporary directory, each run
// with its own vitest config, so the real suite is not involved.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without type declarations
import { isRunning } from '../../scripts/end-processes.mjs';

const script = fileURLToPath(new URL('../../scripts/run-tests.mjs', import.meta.url));
// The form CI greps for: an optional "word:", then "N passed, N failed", then optionally ", N skipped".
const CLOSING = /^(?:\w+: )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?/;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'nrictl-run-tests-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Writes the given test files (globals on: files outside the repo cannot import vitest) and runs the script on them. */
function runOn(
  files: Record<string, string>,
  config = "export default { test: { globals: true, include: ['*.test.mjs'] } };\n",
): { status: number | null; last: string; stdout: string } {
  writeFileSync(join(dir, 'vitest.config.mjs'), config);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  // The inner vitest must not believe it runs inside this worker. Its TMPDIR is dir, so
  // that what its run makes there (and keeps, when its tests leave something) goes with dir.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
  const r = spawnSync(process.execPath, [script, '--config', join(dir, 'vitest.config.mjs'), '--root', dir], {
    encoding: 'utf8',
    env: { ...env, TMPDIR: dir },
    timeout: 60_000,
  });
  const lines = r.stdout.trimEnd().split('\n');
  return { status: r.status, last: lines[lines.length - 1], stdout: r.stdout };
}

function expectHonest({ status, last }: { status: number | null; last: string }): void {
  const m = CLOSING.exec(last);
  expect(m, `closing line "${last}"`).not.toBeNull();
  expect(Number(m![2]) > 0, `"${last}" with exit code ${status}`).toBe(status !== 0);
}

const CJS_CONFIG = "export default { test: { globals: true, include: ['*.test.cjs'] } };\n";

const PASSING = "it('passes', () => { expect(1).toBe(1); });\nit.skip('is skipped', () => {});\n";

describe('scripts/run-tests.mjs', () => {
  it('closes with the counts and exits 0 when everything passes', () => {
    const r = runOn({ 'ok.test.mjs': PASSING });
    expect(r).toMatchObject({ status: 0, last: 'tests: 1 passed, 0 failed, 1 skipped' });
    expectHonest(r);
  });

  it('fails a run whose tests leave anything in their TMPDIR, naming it; a test that removes its own passes', () => {
    const makes = (leaves: boolean) =>
      [
        "const { mkdtempSync, rmSync } = require('node:fs');",
        "const { tmpdir } = require('node:os');",
        "const { join } = require('node:path');",
        `it('makes a temporary directory', () => { const d = mkdtempSync(join(tmpdir(), 'made-')); ${leaves ? '' : 'rmSync(d, { recursive: true });'} expect(d).toContain('made-'); });`,
      ].join('\n');
    const tidy = runOn({ 'tidy.test.cjs': makes(false) }, CJS_CONFIG);
    expect(tidy).toMatchObject({ status: 0, last: 'tests: 1 passed, 0 failed, 0 skipped' });
    expect(readdirSync(dir).filter((n) => n.startsWith('nrictl-tests-'))).toEqual([]);
    rmSync(join(dir, 'tidy.test.cjs'));
    const messy = runOn({ 'messy.test.cjs': makes(true) }, CJS_CONFIG);
    expect(messy).toMatchObject({
      status: 1,
      last: 'tests: 1 passed, 1 failed, 0 skipped (1 entry left behind, listed above)',
    });
    expect(messy.stdout).toMatch(
      /The tests left 1 entry behind \(kept for a look\):\n {2}\S+\/nrictl-tests-\w+\/tmp\/made-\w+\n/,
    );
    expectHonest(messy);
  });

  it('counts a test file that fails to load as a failure, not "0 failed"', () => {
    const r = runOn({ 'ok.test.mjs': PASSING, 'broken.test.mjs': "throw new Error('cannot load');\n" });
    expect(r).toMatchObject({ status: 1, last: 'tests: 1 passed, 1 failed, 1 skipped (1 test file failed to run)' });
    expectHonest(r);
  });

  it('counts failed tests, suites whose hook threw and errors outside any test', () => {
    const r = runOn({
      'mixed.test.mjs': [
        "it('passes', () => { expect(1).toBe(1); });",
        "it('fails', () => { expect(1).toBe(2); });",
        "describe('hook', () => { beforeAll(() => { throw new Error('hook broke'); }); it('never runs', () => { expect(1).toBe(1); }); });",
      ].join('\n'),
      'late.test.mjs':
        "it('passes, then throws later', () => { setTimeout(() => { throw new Error('late'); }, 0); expect(1).toBe(1); });\n",
    });
    expect(r).toMatchObject({
      status: 1,
      last: 'tests: 2 passed, 3 failed, 1 skipped (1 suite failed outside its tests, 1 error outside any test)',
    });
    expectHonest(r);
  });

  it('a test that times out leaves neither its process running nor its directory, with the set-up file; it did without', () => {
    const setup = fileURLToPath(new URL('../support/after-failure-setup.ts', import.meta.url));
    const pidFile = join(dir, 'pid');
    const abandoned = [
      "const { spawn } = require('node:child_process');",
      "const { mkdtempSync, writeFileSync } = require('node:fs');",
      "const { tmpdir } = require('node:os');",
      "const { join } = require('node:path');",
      "it('times out mid-way', async () => {",
      "  mkdtempSync(join(tmpdir(), 'made-'));",
      "  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      `  writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));`,
      '  await new Promise(() => {});',
      '}, 500);',
    ].join('\n');
    const alive = (): boolean => isRunning(Number(readFileSync(pidFile, 'utf8')));
    const config = (extra: string) =>
      `export default { test: { globals: true, include: ['*.test.cjs'], ${extra} } };\n`;
    // Without it, the abandoned test's directory is left, and its child runs on until the
    // script ends it once vitest has ended (the files after it would have run beside it).
    const without = runOn({ 'abandoned.test.cjs': abandoned }, config(''));
    try {
      expect(without.last).toBe('tests: 0 passed, 2 failed, 0 skipped (1 entry left behind, listed above)');
      expect(without.stdout).toContain('Ended 1 process the tests had left running.');
      expect(alive()).toBe(false);
    } finally {
      if (alive()) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
    const runDirs = () => readdirSync(dir).filter((n) => n.startsWith('nrictl-tests-'));
    const kept = runDirs(); // the run above keeps what it left, for a look
    const withIt = runOn({ 'abandoned.test.cjs': abandoned }, config(`setupFiles: [${JSON.stringify(setup)}]`));
    expect(withIt).toMatchObject({ status: 1, last: 'tests: 0 passed, 1 failed, 0 skipped' });
    expect(withIt.stdout).not.toContain('had left running');
    expect(alive()).toBe(false);
    expect(runDirs()).toEqual(kept);
    expectHonest(withIt);
  });

  it('an interrupted run (a SIGINT to the script alone) ends its processes, removes what its tests made, and says so', async () => {
    const pidFile = join(dir, 'pid');
    const waits = [
      "const { spawn } = require('node:child_process');",
      "const { mkdtempSync, writeFileSync } = require('node:fs');",
      "const { tmpdir } = require('node:os');",
      "const { join } = require('node:path');",
      "it('waits', async () => {",
      "  mkdtempSync(join(tmpdir(), 'made-'));",
      "  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });",
      `  writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));`,
      '  await new Promise(() => {});',
      '}, 60_000);',
    ].join('\n');
    writeFileSync(join(dir, 'vitest.config.mjs'), CJS_CONFIG);
    writeFileSync(join(dir, 'waits.test.cjs'), waits);
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST')));
    const runTests = spawn(process.execPath, [script, '--config', join(dir, 'vitest.config.mjs'), '--root', dir], {
      env: { ...env, TMPDIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    runTests.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    runTests.stderr.resume();
    const ended = new Promise<number | null>((resolve) => runTests.on('close', (code) => resolve(code)));
    try {
      // The test has made its directory and started its child (the suite's own timeout bounds this wait).
      while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 50));
      const child = Number(readFileSync(pidFile, 'utf8'));
      runTests.kill('SIGINT');
      const status = await ended;
      const last = stdout.trimEnd().split('\n').at(-1)!;
      expect(status).toBe(130);
      expect(last).toMatch(/^tests: \d+ passed, [1-9]\d* failed, \d+ skipped \(.*interrupted by SIGINT.*\)$/);
      expectHonest({ status, last });
      // The test's child, and the vitest worker when it outlived vitest.
      expect(stdout).toMatch(/Ended [12] process(es)? the tests had left running\./);
      expect(isRunning(child)).toBe(false);
      expect(readdirSync(dir).filter((n) => n.startsWith('nrictl-tests-'))).toEqual([]);
    } finally {
      runTests.kill('SIGKILL');
      if (existsSync(pidFile))
        try {
          process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
        } catch {
          // ended, as it should be
        }
    }
  });

  it('reports a failure when vitest stops before reporting anything', () => {
    const r = runOn({ 'ok.test.mjs': PASSING }, "throw new Error('broken config');\n");
    expect(r.status).not.toBe(0);
    expect(r.last).toMatch(
      /^tests: 0 passed, 1 failed, 0 skipped \(vitest exited with code \d+ before reporting any result; see above\)$/,
    );
    expectHonest(r);
  });
});
