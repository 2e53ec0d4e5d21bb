#!/usr/bin/env node
// dist/src/cli/oclif.js is @oclif/core bundled with the commands by `npm run build`
// (scripts/bundle-cli.mjs). Under --debug, stack traces name the TypeScript sources
// through the bundle's source maps; reading the maps costs start-up time, so only then.
if (process.argv.includes('--debug') || process.env.NRICTL_DEBUG) process.setSourceMapsEnabled(true);
const { execute } = await import('../dist/src/cli/oclif.js');

await execute({ dir: import.meta.url });
