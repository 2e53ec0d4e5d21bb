#!/usr/bin/env node
// Runs one command with a fresh oclif.manifest.json in the package root, and always
// removes the manifest afterwards: a manifest left behind makes bin/run.js trust it
// and hide every command added since (it is only meant to live inside the tarball).
//
//   node scripts/with-manifest.mjs node scripts/gen-man.mjs --check
//
// Expects dist/ to be built (npm run build). Exits with the command's status.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  process.stderr.write('usage: node scripts/with-manifest.mjs COMMAND [ARGS...]\n');
  process.exit(2);
}
const oclifBin = createRequire(import.meta.url).resolve('oclif/bin/run.js');
const manifest = 'oclif.manifest.json';
let status = 1;
try {
  // The update check of the oclif tool reaches the network and has nothing to say here;
  // NODE_ENV=development or test would put TypeScript source paths in the manifest.
  const env = { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true', NODE_ENV: 'production' };
  const built = spawnSync(process.execPath, [oclifBin, 'manifest'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (built.status !== 0) {
    process.stderr.write('with-manifest: `oclif manifest` failed (is dist/ built? run `npm run build`)\n');
  } else {
    const run = spawnSync(cmd, args, { stdio: 'inherit' });
    status = run.status ?? 1;
  }
} finally {
  rmSync(manifest, { force: true });
}
process.exit(status);
