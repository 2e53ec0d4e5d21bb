#!/usr/bin/env node
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
// (scripts/bundle-cli.mjs), loaded with the code cache the build wrote beside it
// (src/cli/code-cache.ts). Under --debug, stack traces name the TypeScript sources
// through the bundle's source map; reading the map costs start-up time, so only then,
// and then Node's own require() reads it.
const bundle = new URL('../dist/cli.cjs', import.meta.url).pathname;
const debugEnv = (process.env.NRICTL_DEBUG ?? '').trim().toLowerCase();
let cli;
if (process.argv.includes('--debug') || !['', '0', 'false', 'no', 'off'].includes(debugEnv)) {
  process.setSourceMapsEnabled(true);
  const { createRequire } = await import('node:module');
  cli = createRequire(import.meta.url)(bundle);
} else {
  const { requireWithCodeCache } = await import('../dist/src/cli/code-cache.js');
  cli = requireWithCodeCache(bundle, {
    cacheFile: new URL('../dist/cli.code-cache', import.meta.url).pathname,
  }).exports;
}

await cli.execute({ dir: import.meta.url });
