#!/usr/bin/env node
// `npm run build`: dist/ and oclif.manifest.json anew, in two lines of work that share
// nothing until the end, run side by side (on two cores the build takes the time of
// tsc, not of tsc and the rest one after the other):
//
//   the SDK: tsc (which type-checks src/ and commands/, and emits dist/src with its
//     declarations), the generated protobufjs modules copied beside it
//     (copy-generated.mjs), and tsc's output that nothing may load removed (prune-dist.mjs);
//   the command line: the bundle (bundle-cli.mjs), oclif's manifest of it
//     (write-manifest.mjs) and V8's code cache of it (write-code-cache.mjs), none of which
//     reads tsc's output.
//
// Then the stamp of what was built (build-stamp.mjs --write). A step that fails stops its
// line; the build fails once both have ended, having said which step failed.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const script = (name, ...args) => [join(root, 'scripts', name), ...args];

/** Runs `node ...args` in the repository; resolves with a failure's description, or undefined. */
function node(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
    child.on('error', (err) => resolve(`${args[0]}: ${err.message}`));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(undefined);
      const step = args.map((a) => (isAbsolute(a) ? relative(root, a) : a)).join(' ');
      resolve(`${step} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`);
    });
  });
}

/** The steps one after the other, stopping at the first that fails. */
async function line(...steps) {
  for (const args of steps) {
    const failed = await node(args);
    if (failed) return failed;
  }
  return undefined;
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
rmSync(join(root, 'oclif.manifest.json'), { force: true });
const lines = await Promise.all([
  line([tsc, '-p', 'tsconfig.build.json'], script('copy-generated.mjs'), script('prune-dist.mjs')),
  line(script('bundle-cli.mjs'), script('write-manifest.mjs'), script('write-code-cache.mjs')),
]);
const failed = lines.some(Boolean) ? lines.filter(Boolean) : [await node(script('build-stamp.mjs', '--write'))];
for (const f of failed.filter(Boolean)) process.stderr.write(`build: ${f}\n`);
process.exitCode = failed.some(Boolean) ? 1 : 0;
