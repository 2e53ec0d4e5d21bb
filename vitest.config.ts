import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Where the tests that need a directory other users can reach make theirs (a private TMPDIR is not one).
    globalSetup: ['test/support/reachable-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Tests open real unix sockets and spawn real processes; two workers match the 2-core machines.
    pool: 'forks',
    maxWorkers: 2,
  },
});
