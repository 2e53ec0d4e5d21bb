import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Test files that pack the package, change the process's environment, or interrupt a run
// of their own with a signal: each in a fresh process of its own, as the process is part of
// what they test. run-tests and the examples need no process of their own, but they
// compute beside the pack files (see the Sequencer below). The other files
// leave nothing of theirs in the process when they end (every socket, server, child and
// timer closed; no global changed): they share their workers' module graphs, so
// a worker starts and loads the sources once rather than once per file, which on a 2-core
// machine was a third of the suite's time. The commands' tests are among them: a command
// run in process (test/support/cli-in-process.ts) gives back the environment, directory,
// streams and exit code it was lent, and leaves no listener behind.
const ISOLATED = [
  'test/pack/**/*.test.ts',
  'test/scripts/run-tests.test.ts',
  'test/examples/**/*.test.ts',
  'test/output/colour.test.ts',
  'test/cli/cri-socket-flag.test.ts',
  'test/conformance/presets.test.ts',
];

/**
 * The own-process files run first (vitest's order), two at a time, and their order sets
 * how much of the two cores that stretch uses. plugin-author packs and installs the
 * package (packed.ts), which pack.test waits for too: plugin-author starts first;
 * conformance's preset matrix, which needs no package, computes beside it while npm works;
 * pack.test follows, when the package is there. The short files come last and fill in
 * beside whichever long one ends later. (pack.test last ran alone for some 20 s, a core
 * idle through its tour's pauses.)
 * prometheus.test, which mostly waits on a real Prometheus's scrapes (25 s for 7 CPU-s),
 * starts the shared files, so that its waits overlap their computing.
 */
const OWN_PROCESS_FIRST = [
  'test/pack/plugin-author.test.ts',
  'test/conformance/presets.test.ts',
  'test/pack/pack.test.ts',
];
const SHARED_FIRST = ['test/deploy/prometheus.test.ts'];

class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const at = (list: string[], f: TestSpecification): number => list.findIndex((p) => f.moduleId.endsWith(p));
    const rank = (f: TestSpecification): number => {
      const first = f.project.name === 'own-process' ? OWN_PROCESS_FIRST : SHARED_FIRST;
      return at(first, f) >= 0 ? at(first, f) - first.length : 0;
    };
    const own = sorted.filter((f) => f.project.name === 'own-process');
    const rest = sorted.filter((f) => f.project.name !== 'own-process');
    // Array.prototype.sort is stable: the others keep vitest's order.
    const byRank = (a: TestSpecification, b: TestSpecification): number => rank(a) - rank(b);
    return [...own.sort(byRank), ...rest.sort(byRank)];
  }
}

export default defineConfig({
  test: {
    // Where the tests that need a directory other users can reach make theirs (a private TMPDIR is not one).
    // And where the test files share what is made once per run (test/support/once.ts).
    globalSetup: ['test/support/reachable-setup.ts', 'test/support/once-setup.ts'],
    // Only to end a hung test: no test's time is what it tests (speed figures come from
    // bench/). A test taking 5 s on an idle 2-core machine takes several times that with
    // both cores busy, so the bound is well past that.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests open real unix sockets and spawn real processes; two workers match the 2-core
    // machines, for the own-process files, which mostly compute (npm, tsc, the README tour).
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: Sequencer },
    projects: [
      { extends: true, test: { name: 'own-process', include: ISOLATED } },
      {
        extends: true,
        test: {
          name: 'shared-process',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          // Many of these files wait (request timeouts, a scenario's pauses, children that
          // start): with two workers both were often waiting at once, a third of the cores
          // idle over the run; a third worker computes meanwhile. A project of its own
          // number of workers is a group of its own, after the own-process files.
          maxWorkers: 3,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
