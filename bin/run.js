#!/usr/bin/env node
// CommonJS (bin/package.json says so), not an ES module: as the program's entry an ES
// module starts Node's ES module loader, ~4 ms of every command's start, only to load
// what is CommonJS anyway (the bundle and its loader). bin/dev.mjs stays an ES module.
'use strict';

// Ctrl-C, SIGTERM and SIGHUP are held from the first moment: the command that starts
// takes them over (src/cli/signals.ts) and ends through its normal path, instead of
// Node's default death with no word while oclif loads.
const early = [];
const onEarly = (signal) => early.push(signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onEarly);
globalThis[Symbol.for('nrictl.early-signals')] = { early, onEarly };

// The bundle is compiled code: under NODE_ENV=test or development (a test runner, a
// plugin project's tests) oclif must not go looking for TypeScript sources of it.
globalThis.oclif = { ...globalThis.oclif, enableAutoTranspile: false };

// dist/cli.cjs is @oclif/core bundled with the commands by `npm run build`
// (scripts/bundle-cli.mjs), loaded with the code cache the build wrote beside it by
// dist/code-cache.cjs (src/cli/code-cache.ts). Under --debug, stack traces name the
// TypeScript sources through the bundle's source map; reading the map costs start-up
// time, so only then, and then Node's own require() reads it.
const path = require('node:path');
const root = path.join(__dirname, '..');
const bundle = path.join(root, 'dist', 'cli.cjs');
const debugEnv = (process.env.NRICTL_DEBUG ?? '').trim().toLowerCase();
let cli;
if (process.argv.includes('--debug') || !['', '0', 'false', 'no', 'off'].includes(debugEnv)) {
  process.setSourceMapsEnabled(true);
  cli = require(bundle);
} else {
  const { requireWithCodeCache } = require(path.join(root, 'dist', 'code-cache.cjs'));
  cli = requireWithCodeCache(bundle, { cacheFile: path.join(root, 'dist', 'cli.code-cache') }).exports;
}

// The package's root, not this file: oclif looks for package.json upwards from here,
// and would stop at bin/package.json.
void cli.execute({ dir: root }).then(() => {
  // The command has ended and its output is drained. A reader that goes away now is
  // nobody's error, and whatever a library forgot open (a timer, a socket) must not keep
  // the process alive.
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  setTimeout(() => process.exit(), 2000).unref();
});
