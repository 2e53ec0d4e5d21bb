#!/usr/bin/env node
// Writes oclif.manifest.json in the package root from the freshly built dist/ (the last
// step of `npm run build`). With it, bin/run.js lists commands and shows their help
// without importing every command file, and runs a command loading only that one.
// It is rebuilt with dist/ every time, so it cannot go stale against what it describes.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const oclifBin = createRequire(import.meta.url).resolve('oclif/bin/run.js');
// The update check of the oclif tool reaches the network and has nothing to say here;
// NODE_ENV=development or test would put TypeScript source paths in the manifest.
const env = { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true', NODE_ENV: 'production' };
const r = spawnSync(process.execPath, [oclifBin, 'manifest'], { stdio: ['ignore', 'ignore', 'inherit'], env });
if (r.status !== 0) process.stderr.write('write-manifest: `oclif manifest` failed (is dist/ built?)\n');
process.exit(r.status ?? 1);
