#!/usr/bin/env node
// Whether dist/ was built from the sources as they are now. `npm run build` ends by
// writing dist/build-stamp, a hash of everything the build reads (the sources, the
// build's scripts and configuration, the locked dependencies); scripts/run-tests.mjs
// builds before the tests when the stamp is missing or differs, so that `npm ci && npm
// test` works without `npm run build`, and no test runs a CLI older than its sources.
// A hash, not mtimes: a checkout or a `git stash` changes mtimes, not what was built.
//
//   node scripts/build-stamp.mjs --write   (the build's last step)
//   node scripts/build-stamp.mjs --check   (exit 0: fresh; 1: stale, and says why)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist', 'build-stamp');
const DIRS = ['src', 'commands', 'bin'];
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/copy-generated.mjs',
  'scripts/prune-dist.mjs',
  'scripts/bundle-cli.mjs',
  'scripts/write-manifest.mjs',
  'scripts/write-code-cache.mjs',
  'scripts/oclif-patches.mjs',
  'scripts/oclif-own-commands.mjs',
  'scripts/build-stamp.mjs',
];

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** The hash of everything the build reads. */
function sourcesHash() {
  const hash = createHash('sha256');
  const files = [...DIRS.flatMap((d) => [...walk(join(root, d))]), ...FILES.map((f) => join(root, f))];
  for (const file of files) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** Why dist/ is not the build of the sources as they are, or undefined when it is. */
export function whyStale() {
  if (!existsSync(join(root, 'dist', 'cli.cjs'))) return 'dist/ is not built';
  if (!existsSync(STAMP)) return 'dist/ has no build stamp';
  if (readFileSync(STAMP, 'utf8').trim() !== sourcesHash()) return 'the sources changed since dist/ was built';
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === '--write') writeFileSync(STAMP, `${sourcesHash()}\n`);
  else if (process.argv[2] === '--check') {
    const why = whyStale();
    if (why) console.log(why);
    process.exit(why ? 1 : 0);
  } else {
    console.error('usage: node scripts/build-stamp.mjs --write | --check');
    process.exit(2);
  }
}
