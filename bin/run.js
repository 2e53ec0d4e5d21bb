#!/usr/bin/env node
// Ctrl-C, SIGTERM and SIGHUP are held from the first moment: the command that starts
// takes them over (src/cli/signals.ts) and ends through its normal path, instead of
// Node's default death with no word while oclif loads.
const early = [];
const onEarly = (signal) => early.push(signal);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, onEarly);
globalThis[Symbol.for('nrictl.early-signals')] = { early, onEarly };

// dist/src/cli/oclif.js is @oclif/core bundled with the commands by `npm run build`
// (scripts/bundle-cli.mjs). Under --debug, stack traces name the TypeScript sources
// through the bundle's source maps; reading the maps costs start-up time, so only then.
const debugEnv = (process.env.NRICTL_DEBUG ?? '').trim().toLowerCase();
if (process.argv.includes('--debug') || !['', '0', 'false', 'no', 'off'].includes(debugEnv)) {
  process.setSourceMapsEnabled(true);
}
const { execute } = await import('../dist/src/cli/oclif.js');

await execute({ dir: import.meta.url });
