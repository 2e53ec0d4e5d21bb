import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Where the tests that need a directory other users can reach make theirs (a private TMPDIR is not one).
    // And where the test files share what is made once per run (test/support/once.ts).
    globalSetup: ['test/support/reachable-setup.ts', 'test/support/once-setup.ts'],
    // Only to end a hung test: no test's time is what it tests (speed figures come from
    // bench/). A test taking 5 s on an idle 2-core machine takes several times that with
    // both cores busy, so the bound is well past that.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Tests open real unix sockets and spawn real processes; two workers match the 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
  },
});
