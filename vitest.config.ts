import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Test files that pack the package, change the process's environment, or interrupt a run
// of their own with a signal: each in a fresh process of its own, as the process is part
// of what they test. run-tests and the examples need none, but they are own-process files
// so as to run early, beside the pack files (the Sequencer below). The other files leave
// nothing of theirs in the process when they end (every socket, server, child and timer
// closed; no global changed): they share their workers' module graphs, so a worker starts
// and loads the sources once rather than once per file, which on a 2-core machine was a
// third of the suite's time. The commands' tests are among them: a command run in process
// (test/support/cli-in-process.ts) gives back the environment, directory, streams and exit
// code it was lent, and leaves no listener behind.
const ISOLATED = [
  'test/pack/**/*.test.ts',
  'test/scripts/run-tests.test.ts',
  'test/examples/**/*.test.ts',
  'test/output/colour.test.ts',
  'test/cli/cri-socket-flag.test.ts',
  'test/conformance/presets.test.ts',
];

/**
 * Both kinds of file share one pool of three workers (below), and the order sets how much
 * of the two cores the run uses. First what is long: prometheus.test, which mostly waits
 * on a real Prometheus's scrapes (25 s for 7 CPU-s; skipped without it), so that its waits
 * overlap the others' computing; plugin-author, which packs and installs the package
 * (packed.ts) that pack.test waits for too; conformance's preset matrix, which needs no
 * package and computes beside it while npm works; pack.test, which waits for the package.
 * Then the other own-process files, then the shared ones, which fill in beside whichever
 * long file ends last.
 */
const FIRST = [
  'test/deploy/prometheus.test.ts',
  'test/pack/plugin-author.test.ts',
  'test/conformance/presets.test.ts',
  'test/pack/pack.test.ts',
];

class Sequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const first = (f: TestSpecification): number => FIRST.findIndex((p) => f.moduleId.endsWith(p));
    const rank = (f: TestSpecification): number => {
      const at = first(f);
      if (at >= 0) return at - FIRST.length;
      return f.project.name === 'own-process' ? 0 : 1;
    };
    // Array.prototype.sort is stable: within a rank, files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Where the tests that need a directory other users can reach make theirs (a private TMPDIR is not one).
    // And where the test files share what is made once per run (test/support/once.ts).
    globalSetup: ['test/support/reachable-setup.ts', 'test/support/once-setup.ts'],
    // A file that fails (a test timed out, say) leaves no process running and none of its
    // directories behind (test/support/after-failure.ts).
    setupFiles: ['test/support/after-failure-setup.ts'],
    // Only to end a hung test: no test's time is what it tests (speed figures come from
    // bench/). A test taking 5 s on an idle 2-core machine takes several times that with
    // both cores busy, so the bound is well past that.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests open real unix sockets and spawn real processes. Many files wait (request
    // timeouts, a scenario's pauses, children that start, npm): three workers on the 2-core
    // machines, so that one computes while others wait. One pool for both projects: as two
    // groups, the shared files waited for the last own-process file, and at the start of
    // each group the cores idled while its first files waited all at once (some 40 of 200
    // core-seconds of a run); four workers cost more CPU than the idling they saved.
    pool: 'forks',
    maxWorkers: 3,
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
        },
      },
    ],
  },
});
