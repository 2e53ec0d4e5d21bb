#!/usr/bin/env node
// Runs nrictl from the TypeScript sources (commands/ and src/), without a build.
// It needs tsx's loader from this repository's node_modules: `node --import tsx` in the
// shebang would resolve tsx from the current directory and fail outside the repository,
// so without the loader this script starts itself again with it.
import { spawnSync } from 'node:child_process';
import { constants } from 'node:os';

if (process.env.NRICTL_DEV_LOADER === undefined) {
  const loader = import.meta.resolve('tsx');
  const self = new URL(import.meta.url).pathname;
  const r = spawnSync(process.execPath, ['--import', loader, '--no-warnings', self, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, NRICTL_DEV_LOADER: loader },
  });
  process.exit(r.status ?? 128 + (constants.signals[r.signal] ?? 0));
}
const { execute } = await import('@oclif/core');
await execute({ development: true, dir: import.meta.url });
